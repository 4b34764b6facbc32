// The games the client has a table for: one module per game (what each game offers — seats,
// boards, variants — comes from the server: GET /api/kinds).
import autoscooter from './autoscooter.js';
import roborally from './roborally.js';
import bumpingBots from './bumping-bots.js';
import bumpingBotsChampionship from './bumping-bots-championship.js';

export const GAMES = {
  autoscooter,
  roborally,
  'bumping-bots': bumpingBots,
  'bumping-bots-championship': bumpingBotsChampionship,
};

export const gameModule = (name) => GAMES[name] || null;
