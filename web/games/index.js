// The games the client can show: one module per game. RoboRally and Bumping Bots get a line
// each here when their tables exist.
import autoscooter from './autoscooter.js';

export const GAMES = {
  autoscooter,
};

export const COMING = [
  { name: 'roborally', title: 'RoboRally' },
  { name: 'bumpingbots', title: 'Bumping Bots' },
];

export const gameModule = (name) => GAMES[name] || null;
