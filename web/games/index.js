// The games the client can show: one module per game.
import autoscooter from './autoscooter.js';
import roborally from './roborally.js';
import bumpingBots from './bumping-bots.js';

export const GAMES = {
  autoscooter,
  roborally,
  'bumping-bots': bumpingBots,
};

export const COMING = [];

export const gameModule = (name) => GAMES[name] || null;
