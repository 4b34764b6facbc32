// An action the server refused anyway (a race with another decision, a timer that ran out): a
// sentence in words beside the controls, with the code in small print — never a raw engine error
// in a toast (issue 21). `WORDS` turns the game crates' stable error codes (the server's `rule`)
// into sentences for people; a code not in it falls back to the engine's own sentence (each
// game's error `Display`), given a capital and a full stop when its phrase lacks them.

import { h, clear } from '../dom.js';

/** The first number of the engine's message (a register, a priority), for the sentences below. */
const num = (m) => (String(m || '').match(/\d+/) || [''])[0];

/** Error codes → sentences. Every RoboRally code (`crates/roborally/src/error.rs`) is here;
 * the codes several games share (`game_over`, `not_your_decision`, `wrong_action`) read the
 * same in every game. */
export const WORDS = {
  game_over: () => 'The game is over.',
  unknown_seat: () => 'That seat is not in this game.',
  not_your_decision: () => 'It is not your decision now: the game has moved on.',
  wrong_action: () => 'The game is waiting for another kind of decision from you now.',
  // RoboRally: programming (RR-4, RR-7.2).
  already_programmed: () => 'Your program is already sent for this turn.',
  powered_down: () => 'Your robot is powered down this turn: it runs no program.',
  robot_destroyed: () => 'Your robot is destroyed: it waits to re-enter.',
  robot_out: () => 'Your robot is out of the game.',
  card_not_in_hand: (m) => `The card ${num(m)} is not in your hand (any more).`,
  duplicate_card: (m) => `The card ${num(m)} is in two registers: each card goes in one register.`,
  register_locked: (m) => `Register ${num(m)} is locked by damage: it keeps its card.`,
  register_empty: (m) => `Register ${num(m)} is empty: fill every register you can before sending.`,
  power_down_undamaged: () => 'Only a damaged robot may announce a power down.',
  register_out_of_range: (m) => `There is no register ${num(m)}: registers go from 1 to 5.`,
  draft_unchanged: (m) => `Register ${num(m)} already holds that card.`,
  too_many_places: () => 'You have moved cards around too often this turn: send your program.',
  // RoboRally: re-entry (RR-8.3).
  reenter_archive_free: () => 'Your archive is free: your robot re-enters there.',
  reenter_off_board: () => 'That cell is off the board.',
  reenter_pit: () => 'That cell is a pit.',
  reenter_occupied: () => 'Another robot stands on that cell.',
  reenter_not_adjacent: () => 'Choose one of the free cells nearest to your archive.',
  reenter_line_of_sight: () => 'A robot stands within 3 cells in that direction, and another choice is clear: choose it.',
  // RoboRally: option cards (RR-7.4, RR-8.2, RR-9).
  option_not_held: () => 'Your robot does not hold that option card (any more).',
  option_required: () => 'Your destroyed robot must give up one of its option cards.',
  option_missing: () => 'Choose an option card to use.',
  option_extra_argument: () => 'That option card is not used that way.',
  option_register_required: () => 'Choose the register the card goes with.',
  option_nothing_on_it: () => 'There is no card on that option card.',
  option_card_required: () => 'Choose the program card to put on the option card.',
  option_card_unfit: () => 'Crab Legs takes a Move 1 card only.',
  option_no_spare_card: () => 'Only a spare card goes on an option card: your hand must still fill every register.',
  recompile_too_damaged: () => 'Recompile costs a damage point: not with 9 damage or more.',
  target_adjacent: () => 'The Tractor Beam works only on a robot that is not next to yours.',
  no_card_to_scramble: () => 'That robot has no card to scramble in its next register.',
  option_target_required: () => 'Choose a target: a register to jam or an option card to destroy (Fire Control), or the site the Mechanical Arm touches.',
  option_condition_unmet: () => 'That option card cannot be used now: its condition no longer holds.',
  option_already_used: () => 'That option card has been used already this turn.',
  option_wrong_time: () => 'That option card is not used at this moment of the turn.',
  recompile_after_loading: () => 'Recompile comes before cards are put on Flywheel or Conditional Program.',
  arm_out_of_reach: () => 'That cell is not a flag or repair site within the Mechanical Arm\'s reach.',
};

export function refusalBox() {
  return h('div.refusal', { role: 'alert', hidden: true, 'data-testid': 'refusal' });
}

export function sentence(text) {
  const t = String(text || 'The game did not accept that.').trim();
  const s = t[0].toUpperCase() + t.slice(1);
  return /[.!?)]$/.test(s) ? s : `${s}.`;
}

/** The words for a refusal: the table's sentence for its code, else the engine's. */
export function words(e) {
  const w = e && e.rule && WORDS[e.rule];
  return w ? w(e.message) : sentence(e && e.message);
}

export function showRefusal(box, e) {
  if (!box) return;
  const code = [e.code, e.rule].filter(Boolean).join(' · ');
  clear(box).append(h('b', 'Not accepted: '), words(e), code ? h('small', code) : null);
  box.hidden = false;
}

export function hideRefusal(box) {
  if (box) box.hidden = true;
}
