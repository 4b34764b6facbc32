//! Table talk (docs/protocol.md "Chat", docs/security.md "Limits"): every game, open, running
//! or finished, has two chat channels. A seat's player speaks in the players' channel, anyone
//! else signed in (a spectator) in the spectators' channel. Every observer sees the players'
//! channel; players see the spectators' channel only once the game is over, so that nobody
//! watching can coach a player during the game.
//!
//! Chat is not part of a game's record: the last [`KEEP`] lines of each channel are kept in
//! memory for the tables (a reconnecting client gets them again), for at most [`GAMES`] games
//! (the longest-quiet game's chat is forgotten first), and nothing is written to the database;
//! a restart forgets it, and replays carry none. Lines are numbered per channel, so the numbers
//! a player sees do not tell how many spectators' lines there were. A line carries its channel,
//! number, seat (players only), name and text: no identity, no time, nothing of the game.

use crate::limits::Quota;
use protocol::{ChatChannel, ChatLine};
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Mutex;

/// A chat line said on one node of a cluster, published to the others (`Shared::say`,
/// `fanout::dispatch`): every node keeps it and sends it to its connections of the game.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct Said {
    pub origin: String,
    pub game: String,
    /// Who said it: never sent to a client, only used to hide it from those who block them.
    pub speaker: String,
    pub line: ChatLine,
}

/// Lines kept per channel and game.
pub const KEEP: usize = 50;
/// Games whose chat is kept in memory at once.
pub const GAMES: usize = 2048;

/// Why a line was refused (nothing was said).
#[derive(Debug, PartialEq, Eq)]
pub enum ChatError {
    /// Empty, over the length limit, or holding control characters.
    Bad(String),
    /// Over the per-identity rate; try again after this many seconds.
    TooMany(u64),
}

/// A kept line and who said it (the identity is never sent: it only hides the line from those
/// who block the speaker).
type Kept = (String, ChatLine);

#[derive(Default)]
struct GameChat {
    players: VecDeque<Kept>,
    spectators: VecDeque<Kept>,
    next: [u64; 2],
    /// When the game's chat last changed (a counter, for forgetting the quietest).
    touched: u64,
}

/// Every game's chat, and the per-identity rate limit.
pub struct Chats {
    max_chars: usize,
    quota: Quota<String>,
    games: Mutex<(HashMap<String, GameChat>, u64)>,
}

impl Chats {
    pub fn new(l: &crate::limits::Limits) -> Chats {
        Chats {
            max_chars: l.chat_max_chars,
            quota: Quota::new(
                l.chat_per_window,
                std::time::Duration::from_secs(l.chat_window_secs.max(1)),
            ),
            games: Mutex::new((HashMap::new(), 0)),
        }
    }

    /// The text as it will be said: trimmed; refused if empty, longer than the limit (in
    /// characters) or holding control characters (line breaks included).
    pub fn check_text(&self, text: &str) -> Result<String, ChatError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(ChatError::Bad("say something: an empty line is not sent".into()));
        }
        let n = t.chars().count();
        if n > self.max_chars {
            return Err(ChatError::Bad(format!(
                "a chat line has at most {} characters (this one has {n})",
                self.max_chars
            )));
        }
        if t.chars().any(char::is_control) {
            return Err(ChatError::Bad("a chat line is one line of text".into()));
        }
        Ok(t.to_string())
    }

    /// Say `text` in `game`: checked, charged to `identity`'s rate, numbered and kept.
    pub fn say(
        &self,
        game: &str,
        identity: &str,
        channel: ChatChannel,
        seat: Option<u8>,
        name: &str,
        text: &str,
    ) -> Result<ChatLine, ChatError> {
        let text = self.check_text(text)?;
        self.charge(identity)?;
        Ok(self.keep_new(game, identity, channel, seat, name, text, None))
    }

    /// Charge a line to `identity`'s rate (this node's bucket).
    pub fn charge(&self, identity: &str) -> Result<(), ChatError> {
        self.quota.check(&identity.to_string()).map_err(|d| ChatError::TooMany(d.as_secs() + 1))
    }

    /// Keep a checked line, numbered `n` (a cluster's shared number, `Shared::say`) or by this
    /// node's count of the channel.
    #[allow(clippy::too_many_arguments)]
    pub fn keep_new(
        &self,
        game: &str,
        identity: &str,
        channel: ChatChannel,
        seat: Option<u8>,
        name: &str,
        text: String,
        n: Option<u64>,
    ) -> ChatLine {
        let i = usize::from(channel == ChatChannel::Spectators);
        let mut line = ChatLine {
            channel,
            n: 0,
            seat: if channel == ChatChannel::Players { seat } else { None },
            name: name.to_string(),
            text,
        };
        self.store(game, identity, &mut line, n.filter(|&n| n > 0), i);
        line
    }

    /// Keep a line said on another node of a cluster (numbered there).
    pub fn keep(&self, game: &str, identity: &str, mut line: ChatLine) {
        let i = usize::from(line.channel == ChatChannel::Spectators);
        let n = Some(line.n);
        self.store(game, identity, &mut line, n, i);
    }

    fn store(&self, game: &str, identity: &str, line: &mut ChatLine, n: Option<u64>, i: usize) {
        let mut g = self.games.lock().unwrap_or_else(|p| p.into_inner());
        let (games, clock) = &mut *g;
        *clock += 1;
        if !games.contains_key(game) && games.len() >= GAMES {
            let quietest = games.iter().min_by_key(|(_, c)| c.touched).map(|(k, _)| k.clone());
            if let Some(k) = quietest {
                games.remove(&k);
            }
        }
        let chat = games.entry(game.to_string()).or_default();
        chat.touched = *clock;
        line.n = match n {
            Some(n) => {
                chat.next[i] = chat.next[i].max(n);
                n
            }
            None => {
                chat.next[i] += 1;
                chat.next[i]
            }
        };
        let kept = if i == 0 { &mut chat.players } else { &mut chat.spectators };
        kept.push_back((identity.to_string(), line.clone()));
        if kept.len() > KEEP {
            kept.pop_front();
        }
    }

    /// Games with chat kept, lines kept in all, and identities with a rate bucket (gauges of
    /// `/metrics`).
    pub fn sizes(&self) -> (usize, usize, usize) {
        let g = self.games.lock().unwrap_or_else(|p| p.into_inner());
        let lines = g.0.values().map(|c| c.players.len() + c.spectators.len()).sum();
        (g.0.len(), lines, self.quota.keys())
    }

    /// The kept lines an observer may see: the players' channel, and the spectators' channel
    /// for spectators or once the game is over.
    pub fn lines(&self, game: &str, sees_spectators: bool) -> Vec<ChatLine> {
        self.lines_hiding(game, sees_spectators, |_| false)
    }

    /// [`Self::lines`] without the lines of speakers `hidden` says (the identities the viewer
    /// blocks: [`Blocks::hides`]).
    pub fn lines_hiding(
        &self,
        game: &str,
        sees_spectators: bool,
        hidden: impl Fn(&str) -> bool,
    ) -> Vec<ChatLine> {
        let g = self.games.lock().unwrap_or_else(|p| p.into_inner());
        let Some(chat) = g.0.get(game) else { return Vec::new() };
        let spectators = chat.spectators.iter().filter(|_| sees_spectators);
        chat.players
            .iter()
            .chain(spectators)
            .filter(|(who, _)| !hidden(who))
            .map(|(_, l)| l.clone())
            .collect()
    }
}

/// Identities kept in [`Blocks`] at most (beyond, the entry of another identity is dropped: its
/// next connection loads it again).
pub const BLOCK_LISTS: usize = 10_000;

/// Who blocks whom, for the tables (docs/platform.md "Blocking"): a blocked player's lines are
/// not sent to a connection of the player who blocked them, at any table. Loaded from storage
/// when a signed-in connection attaches to a game (`Shared::subscribe`) and changed at once by
/// a block or an unblock, so a block made during a game applies to the next line. Only
/// identities that block someone are kept.
#[derive(Default)]
pub struct Blocks(Mutex<HashMap<String, HashSet<String>>>);

impl Blocks {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, HashSet<String>>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
    /// `viewer` blocks exactly `blocked` (as storage has it).
    pub fn load(&self, viewer: &str, blocked: HashSet<String>) {
        let mut m = self.map();
        if blocked.is_empty() {
            m.remove(viewer);
            return;
        }
        if !m.contains_key(viewer) && m.len() >= BLOCK_LISTS {
            let other = m.keys().next().cloned();
            if let Some(k) = other {
                m.remove(&k);
            }
        }
        m.insert(viewer.to_string(), blocked);
    }
    /// `viewer` blocked (`on`) or unblocked `player`.
    pub fn set(&self, viewer: &str, player: &str, on: bool) {
        let mut m = self.map();
        if on {
            m.entry(viewer.to_string()).or_default().insert(player.to_string());
        } else if let Some(set) = m.get_mut(viewer) {
            set.remove(player);
            if set.is_empty() {
                m.remove(viewer);
            }
        }
    }
    /// Whether `viewer`'s connections are not sent `speaker`'s lines.
    pub fn hides(&self, viewer: Option<&str>, speaker: &str) -> bool {
        viewer.is_some_and(|v| self.map().get(v).is_some_and(|set| set.contains(speaker)))
    }
}

/// Whether an observer sees a channel: a seat's player sees the spectators' channel only once
/// the game is over.
pub fn visible(channel: ChatChannel, is_player: bool, over: bool) -> bool {
    channel == ChatChannel::Players || !is_player || over
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;

    #[tokio::test(start_paused = true)]
    async fn lines_are_checked_numbered_per_channel_and_kept() {
        let chats = Chats::new(&Limits { chat_per_window: 0, ..Limits::default() });
        assert!(matches!(
            chats.say("g", "a", ChatChannel::Players, Some(0), "Ann", "  "),
            Err(ChatError::Bad(_))
        ));
        let long = "é".repeat(Limits::default().chat_max_chars + 1);
        assert!(matches!(
            chats.say("g", "a", ChatChannel::Players, Some(0), "Ann", &long),
            Err(ChatError::Bad(_))
        ));
        assert!(matches!(
            chats.say("g", "a", ChatChannel::Players, Some(0), "Ann", "a\nb"),
            Err(ChatError::Bad(_))
        ));
        let ok = "é".repeat(Limits::default().chat_max_chars);
        assert_eq!(chats.say("g", "a", ChatChannel::Players, Some(0), "Ann", &ok).unwrap().n, 1);
        let s = chats.say("g", "s", ChatChannel::Spectators, Some(3), "Sam", " psst ").unwrap();
        assert_eq!((s.n, s.seat, s.text.as_str()), (1, None, "psst"), "trimmed, no seat");
        assert_eq!(chats.say("g", "a", ChatChannel::Players, Some(0), "Ann", "hi").unwrap().n, 2);
        assert_eq!(chats.lines("g", false).len(), 2, "players see the players' channel only");
        assert_eq!(chats.lines("g", true).len(), 3);
        for _ in 0..KEEP + 5 {
            chats.say("g", "a", ChatChannel::Players, Some(0), "Ann", "x").unwrap();
        }
        let kept = chats.lines("g", false);
        assert_eq!(kept.len(), KEEP);
        assert_eq!(kept.last().unwrap().n, (KEEP + 7) as u64);
        assert!(visible(ChatChannel::Spectators, false, false));
        assert!(!visible(ChatChannel::Spectators, true, false));
        assert!(visible(ChatChannel::Spectators, true, true));
    }
}
