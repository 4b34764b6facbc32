//! Observations as a fixed-length vector of numbers (the Python package's observations,
//! `docs/python.md` "Observations"), in two ways that give the same numbers:
//!
//! * [`write`]: generic, from any `Serialize` view (no JSON built): it walks the view's
//!   `Serialize` implementation and writes every number it meets, in the order the view
//!   serialises its fields (the struct's field order), into the buffer;
//! * [`Features`]: a writer a game crate drives by hand to write the same numbers straight from
//!   its state, without building the view (each game's `observation` module, checked against
//!   [`write`] of its view by the game's tests).
//!
//! The numbers:
//!
//! * integers and floats as they are (`f32`), booleans 0/1;
//! * `null` (a `None`, a unit) as 0, `Some(x)` as `x`;
//! * a string (and an enum's unit variant, which JSON writes as its name) as its FNV-1a hash
//!   modulo 1024, scaled into [0, 1) ([`string_code`]);
//! * lists, tuples, structs and maps element by element (map keys and enum variant tags are not
//!   written, only values — as the JSON text would carry them: an enum's data variant is its
//!   data; an internally tagged enum's tag is a field, a string); fields a view skips when
//!   serialising are skipped here too.
//!
//! Both stop at the end of the buffer and fill what the view did not reach with zeros. Since
//! the numbers are those of one observer's view, they never hold more than that observer may
//! see. It decides nothing about the rules.

use serde::ser::{self, Serialize};
use std::fmt;

/// Write `value`'s numbers into `out` (zero-filled after the last one); returns how many the
/// value wrote (at most `out.len()`).
pub fn write<T: Serialize + ?Sized>(value: &T, out: &mut [f32]) -> usize {
    let mut w = Writer { out, n: 0 };
    // `Full` is the early stop at the end of the buffer, not a failure; the serialisers of
    // the views fail on nothing else.
    let _ = value.serialize(&mut w);
    let n = w.n;
    w.out[n..].fill(0.0);
    n
}

/// The hash of a string, scaled into [0, 1) (FNV-1a, modulo 1024).
pub fn string_code(s: &str) -> f32 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    (h % 1024) as f32 / 1024.0
}

struct Writer<'a> {
    out: &'a mut [f32],
    n: usize,
}

/// The buffer is full: stop walking the value.
#[derive(Debug)]
pub struct Full;

impl fmt::Display for Full {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the feature buffer is full")
    }
}
impl std::error::Error for Full {}
impl ser::Error for Full {
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        Full
    }
}

impl Writer<'_> {
    fn push(&mut self, x: f32) -> Result<(), Full> {
        match self.out.get_mut(self.n) {
            Some(slot) => {
                *slot = x;
                self.n += 1;
                Ok(())
            }
            None => Err(Full),
        }
    }
}

macro_rules! number {
    ($($f:ident: $t:ty),*) => {
        $(fn $f(self, v: $t) -> Result<(), Full> {
            self.push(v as f32)
        })*
    };
}

impl<'a, 'b> ser::Serializer for &'a mut Writer<'b> {
    type Ok = ();
    type Error = Full;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    number!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64,
        serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64,
        serialize_f32: f32, serialize_f64: f64);

    fn serialize_bool(self, v: bool) -> Result<(), Full> {
        self.push(f32::from(u8::from(v)))
    }
    fn serialize_char(self, v: char) -> Result<(), Full> {
        self.push(string_code(v.encode_utf8(&mut [0; 4])))
    }
    fn serialize_str(self, v: &str) -> Result<(), Full> {
        self.push(string_code(v))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Full> {
        v.iter().try_for_each(|&b| self.push(f32::from(b)))
    }
    fn serialize_none(self) -> Result<(), Full> {
        self.push(0.0)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<(), Full> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Full> {
        self.push(0.0)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), Full> {
        self.push(0.0)
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        name: &'static str,
    ) -> Result<(), Full> {
        self.push(string_code(name))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<(), Full> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        v: &T,
    ) -> Result<(), Full> {
        v.serialize(self)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self, Full> {
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, Full> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Full> {
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Full> {
        Ok(self)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self, Full> {
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Full> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Full> {
        Ok(self)
    }
}

macro_rules! elements {
    ($($tr:ident :: $f:ident),*) => {
        $(impl ser::$tr for &mut Writer<'_> {
            type Ok = ();
            type Error = Full;
            fn $f<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Full> {
                v.serialize(&mut **self)
            }
            fn end(self) -> Result<(), Full> {
                Ok(())
            }
        })*
    };
}

elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for &mut Writer<'_> {
    type Ok = ();
    type Error = Full;
    /// Keys are names, not values: not written.
    fn serialize_key<T: Serialize + ?Sized>(&mut self, _: &T) -> Result<(), Full> {
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Full> {
        v.serialize(&mut **self)
    }
    fn end(self) -> Result<(), Full> {
        Ok(())
    }
}

/// A struct's fields, named by the type: only their values are written.
macro_rules! fields {
    ($($tr:ident),*) => {
        $(impl ser::$tr for &mut Writer<'_> {
            type Ok = ();
            type Error = Full;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                _: &'static str,
                v: &T,
            ) -> Result<(), Full> {
                v.serialize(&mut **self)
            }
            fn end(self) -> Result<(), Full> {
                Ok(())
            }
        })*
    };
}

fields!(SerializeStruct, SerializeStructVariant);

/// Numbers written by hand into a buffer, as [`write`] writes a view's: a game's own writer
/// pushes, in the view's field order, what the view would serialise. Past the end of the
/// buffer a number is dropped (as [`write`] stops); [`Features::finish`] zero-fills the rest.
pub struct Features<'a> {
    out: &'a mut [f32],
    n: usize,
}

impl<'a> Features<'a> {
    pub fn new(out: &'a mut [f32]) -> Self {
        Features { out, n: 0 }
    }
    /// One number (an integer is written `as f32`, as [`write`] does).
    #[inline]
    pub fn num(&mut self, x: f32) {
        if let Some(slot) = self.out.get_mut(self.n) {
            *slot = x;
            self.n += 1;
        }
    }
    /// A boolean: 0 or 1.
    #[inline]
    pub fn flag(&mut self, b: bool) {
        self.num(f32::from(u8::from(b)));
    }
    /// A string (or an enum's unit variant, or an internal tag): its [`string_code`].
    #[inline]
    pub fn str(&mut self, s: &str) {
        if !self.full() {
            self.num(string_code(s));
        }
    }
    /// A `char` (serialised as a one-character string).
    #[inline]
    pub fn char(&mut self, c: char) {
        if !self.full() {
            self.num(string_code(c.encode_utf8(&mut [0; 4])));
        }
    }
    /// Any serialisable value, as [`write`] writes it (for the leaves of a view: an enum's
    /// name, a card; nothing is allocated).
    #[inline]
    pub fn value<T: Serialize + ?Sized>(&mut self, v: &T) {
        let mut w = Writer { out: &mut self.out[self.n..], n: 0 };
        let _ = v.serialize(&mut w);
        self.n += w.n;
    }
    /// Whether the buffer is full (the rest of the view need not be visited).
    #[inline]
    pub fn full(&self) -> bool {
        self.n >= self.out.len()
    }
    /// How many numbers were written so far.
    pub fn len(&self) -> usize {
        self.n
    }
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
    /// Zero-fill the rest of the buffer; returns how many numbers were written.
    pub fn finish(self) -> usize {
        self.out[self.n..].fill(0.0);
        self.n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use std::collections::BTreeMap;

    #[derive(Serialize)]
    #[serde(tag = "kind", rename_all = "snake_case")]
    enum Waiting {
        Plan { seats: Vec<u8> },
    }

    #[derive(Serialize)]
    enum Letter {
        H,
    }

    #[derive(Serialize)]
    struct View {
        round: u8,
        over: bool,
        at: (i32, i32),
        plot: Option<u8>,
        none: Option<u8>,
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<u8>,
        letter: Letter,
        waiting: Waiting,
        colours: BTreeMap<String, u16>,
        speed: f64,
    }

    fn view() -> View {
        View {
            round: 3,
            over: true,
            at: (-2, 5),
            plot: Some(7),
            none: None,
            skipped: None,
            letter: Letter::H,
            waiting: Waiting::Plan { seats: vec![0, 1] },
            colours: BTreeMap::from([("a".to_string(), 4), ("b".to_string(), 6)]),
            speed: 1.5,
        }
    }

    #[test]
    fn every_number_in_field_order_strings_hashed_keys_left_out() {
        let mut out = [9.0f32; 16];
        let n = write(&view(), &mut out);
        let h = string_code;
        let expected = [3.0, 1.0, -2.0, 5.0, 7.0, 0.0, h("H"), h("plan"), 0.0, 1.0, 4.0, 6.0, 1.5];
        assert_eq!(n, expected.len());
        assert_eq!(&out[..n], &expected);
        assert!(out[n..].iter().all(|&x| x == 0.0), "the rest is zero-filled: {out:?}");
    }

    #[test]
    fn a_short_buffer_takes_the_first_numbers() {
        let mut out = [0.0f32; 4];
        assert_eq!(write(&view(), &mut out), 4);
        assert_eq!(out, [3.0, 1.0, -2.0, 5.0]);
        let mut none: [f32; 0] = [];
        assert_eq!(write(&view(), &mut none), 0);
    }

    #[test]
    fn string_codes_are_fnv1a_modulo_1024() {
        // FNV-1a of "" is the offset basis 0xcbf29ce484222325; its last 10 bits are 0x325.
        assert_eq!(string_code(""), 0x325 as f32 / 1024.0);
        assert!((0.0..1.0).contains(&string_code("autoscooter")));
    }

    #[test]
    fn the_hand_writer_writes_what_the_generic_one_writes() {
        let v = view();
        let mut by_hand = [9.0f32; 16];
        let mut f = Features::new(&mut by_hand);
        f.num(3.0);
        f.flag(true);
        f.num(-2.0);
        f.num(5.0);
        f.num(7.0);
        f.num(0.0);
        f.value(&Letter::H);
        f.str("plan");
        f.num(0.0);
        f.num(1.0);
        f.num(4.0);
        f.num(6.0);
        f.num(1.5);
        let n = f.finish();
        let mut generic = [9.0f32; 16];
        assert_eq!(write(&v, &mut generic), n);
        assert_eq!(by_hand, generic);
        let mut short = [0.0f32; 2];
        let mut f = Features::new(&mut short);
        f.num(1.0);
        f.num(2.0);
        f.num(3.0);
        assert!(f.full());
        assert_eq!(f.finish(), 2);
        assert_eq!(short, [1.0, 2.0]);
    }
}
