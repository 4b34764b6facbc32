//! The turn-number sheet (AS-2.1): car `c`'s numbers are `8·i + ((c + 3·i) mod 8) + 1`,
//! `i = 0..10`. All 88 numbers are distinct, so no two cars ever tie (AS-2.2).

/// Number of rounds, and of turn numbers per car.
pub const ROUNDS: u8 = 11;
/// Cars on the sheet.
pub const CARS: u8 = 8;

/// Car `car`'s number in row `i` (`i < 11`).
pub const fn number(car: u8, i: u8) -> u8 {
    8 * i + ((car + 3 * i) % 8) + 1
}

/// The row of `number` in `car`'s column, if the number is the car's.
pub const fn row_of(car: u8, number: u32) -> Option<u8> {
    if number == 0 || number > 88 || car >= CARS {
        return None;
    }
    let i = ((number - 1) / 8) as u8;
    if number as u8 == self::number(car, i) { Some(i) } else { None }
}

/// The whole column of a car, ascending.
pub fn column(car: u8) -> [u8; 11] {
    let mut out = [0; 11];
    for i in 0..ROUNDS {
        out[i as usize] = number(car, i);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_88_distinct_and_examples() {
        let mut seen = [false; 89];
        for c in 0..CARS {
            for n in column(c) {
                assert!(!seen[n as usize]);
                seen[n as usize] = true;
                assert_eq!(row_of(c, n as u32).map(|i| number(c, i)), Some(n));
            }
        }
        assert_eq!(column(0), [1, 12, 23, 26, 37, 48, 51, 62, 65, 76, 87]);
        assert_eq!(column(1), [2, 13, 24, 27, 38, 41, 52, 63, 66, 77, 88]);
        assert_eq!(row_of(0, 9), None); // 9 is car 5's (the shared example)
        assert_eq!(row_of(5, 9), Some(1));
    }
}
