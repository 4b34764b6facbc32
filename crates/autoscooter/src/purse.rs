//! Chits, and how they are paid (AS-5.6, AS-7.3).
//!
//! A [`Purse`] counts chits by colour (a colour is named by its car's number). Without
//! `colour_scoring` every chit is of colour 0 and only the total matters.

use serde::ser::{Serialize, SerializeMap, Serializer};
use std::collections::BTreeSet;

/// Chits by colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Purse(pub [u16; 8]);

impl Purse {
    pub fn plain(n: u32) -> Purse {
        let mut p = Purse::default();
        p.0[0] = n.min(u16::MAX as u32) as u16;
        p
    }
    #[inline]
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| n as u32).sum()
    }
    /// Number of colours held (at least one chit).
    pub fn colours(&self) -> u32 {
        self.0.iter().filter(|&&n| n > 0).count() as u32
    }
    pub fn add(&mut self, other: &Purse) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
    }
    pub fn sub(&mut self, other: &Purse) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a -= b;
        }
    }
    pub fn contains(&self, other: &Purse) -> bool {
        self.0.iter().zip(other.0).all(|(&a, b)| a >= b)
    }
    /// The only colour held, if exactly one colour is held.
    fn single_colour(&self) -> Option<usize> {
        let mut found = None;
        for (i, &n) in self.0.iter().enumerate() {
            if n > 0 {
                if found.is_some() {
                    return None;
                }
                found = Some(i);
            }
        }
        found
    }
}

/// The ways a player can pay `amount` chits chit by chit (AS-7.3): each chit of a colour the
/// payer holds most of; the last chit of a colour only if no other colour has more than one.
/// Returns the distinct multisets paid, sorted. `amount` is first cut to what the payer holds.
pub fn payments(payer: &Purse, amount: u32) -> Vec<Purse> {
    let amount = amount.min(payer.total());
    if amount == 0 {
        return vec![Purse::default()];
    }
    if let Some(c) = payer.single_colour() {
        let mut p = Purse::default();
        p.0[c] = amount as u16;
        return vec![p];
    }
    // Breadth-first over the chits, keeping the distinct (paid) multisets reached.
    let mut frontier: BTreeSet<Purse> = BTreeSet::from([Purse::default()]);
    for _ in 0..amount {
        let mut next = BTreeSet::new();
        for paid in &frontier {
            let mut left = *payer;
            left.sub(paid);
            for c in chit_choices(&left) {
                let mut p = *paid;
                p.0[c] += 1;
                next.insert(p);
            }
        }
        frontier = next;
    }
    frontier.into_iter().collect()
}

/// The colours the next chit may be of.
fn chit_choices(left: &Purse) -> impl Iterator<Item = usize> + '_ {
    let most = *left.0.iter().max().unwrap_or(&0);
    (0..8).filter(move |&c| {
        let n = left.0[c];
        n > 0 && n == most && (n > 1 || left.0.iter().enumerate().all(|(o, &m)| o == c || m <= 1))
    })
}

/// The ways to take `amount` chits from the box: any colours it holds (AS-7.3).
pub fn box_takings(from_box: &Purse, amount: u32) -> Vec<Purse> {
    let amount = amount.min(from_box.total());
    if let Some(c) = from_box.single_colour() {
        let mut p = Purse::default();
        p.0[c] = amount as u16;
        return vec![p];
    }
    let mut out = Vec::new();
    let mut cur = Purse::default();
    fn rec(c: usize, left: u32, avail: &Purse, cur: &mut Purse, out: &mut Vec<Purse>) {
        if c == 8 {
            if left == 0 {
                out.push(*cur);
            }
            return;
        }
        let max = left.min(avail.0[c] as u32);
        for k in 0..=max {
            cur.0[c] = k as u16;
            rec(c + 1, left - k, avail, cur, out);
        }
        cur.0[c] = 0;
    }
    rec(0, amount, from_box, &mut cur, &mut out);
    out.sort();
    out
}

/// Serialised as a map from colour (the car number, as a string) to count, without zeros.
impl Serialize for Purse {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        for (c, &n) in self.0.iter().enumerate() {
            if n > 0 {
                m.serialize_entry(&c.to_string(), &n)?;
            }
        }
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn purse(pairs: &[(usize, u16)]) -> Purse {
        let mut p = Purse::default();
        for &(c, n) in pairs {
            p.0[c] = n;
        }
        p
    }

    #[test]
    fn pays_from_the_colour_held_most() {
        let p = purse(&[(0, 5), (1, 2)]);
        assert_eq!(payments(&p, 3), vec![purse(&[(0, 3)])]);
        // 5 and 2: after 3 chits of colour 0 it holds 2 and 2 -> a choice for the 4th chit.
        assert_eq!(payments(&p, 4), vec![purse(&[(0, 3), (1, 1)]), purse(&[(0, 4)])]);
    }

    #[test]
    fn ties_give_choices_and_last_chits_wait() {
        let p = purse(&[(2, 1), (3, 2)]);
        // First chit must be colour 3 (holds most); then 1 and 1: either.
        assert_eq!(payments(&p, 2), vec![purse(&[(3, 2)]), purse(&[(2, 1), (3, 1)])]);
        assert_eq!(payments(&p, 9), vec![p], "cut to what the payer holds");
    }

    #[test]
    fn plain_purses_never_choose() {
        assert_eq!(payments(&Purse::plain(4), 6), vec![Purse::plain(4)]);
        assert_eq!(box_takings(&Purse::plain(2), 3), vec![Purse::plain(2)]);
    }

    #[test]
    fn box_takings_list_every_mix() {
        let b = purse(&[(0, 1), (1, 2)]);
        assert_eq!(box_takings(&b, 2).len(), 2); // {0,1} or {1,1}
        assert!(box_takings(&b, 2).iter().all(|p| p.total() == 2 && b.contains(p)));
    }
}
