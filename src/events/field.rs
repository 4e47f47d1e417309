//! Field decoding: how each Rust field type is read from JSON and written back.

use super::diagnostic::{DiagCode, Severity};
use crate::json::{write_number, write_str, Value};
use std::borrow::Cow;

/// Collects field problems while an event is decoded.
#[derive(Debug, Default)]
pub(crate) struct FieldSink {
    /// (code, severity, message, path)
    pub problems: Vec<(DiagCode, Severity, String, String)>,
    /// A required field was missing or invalid: the event is rejected.
    pub failed: bool,
}

impl FieldSink {
    pub(crate) fn problem(&mut self, field: &str, optional: bool, p: Problem) {
        let severity = if optional {
            Severity::Warning
        } else {
            self.failed = true;
            Severity::Error
        };
        let message = if optional {
            format!("{field}: {} (field ignored)", p.message)
        } else {
            format!("{field}: {}", p.message)
        };
        self.problems
            .push((p.code, severity, message, format!("$.{field}")));
    }

    /// A required field that is absent. A field that was present but invalid was already
    /// reported by [`FieldSink::problem`]: it is not also "missing".
    pub(crate) fn missing(&mut self, field: &str) {
        self.failed = true;
        let path = format!("$.{field}");
        if self.problems.iter().any(|p| p.3 == path) {
            return;
        }
        self.problems.push((
            DiagCode::MissingField,
            Severity::Error,
            format!("missing required field {field}"),
            path,
        ));
    }

    pub(crate) fn warn(&mut self, code: DiagCode, message: String, path: String) {
        self.problems.push((code, Severity::Warning, message, path));
    }
}

/// A string field (borrowed from the event data when it had no escapes).
pub type Str<'a> = Cow<'a, str>;

/// Why a field value was not accepted.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// Stable code.
    pub code: DiagCode,
    /// Short explanation.
    pub message: String,
}

impl Problem {
    pub(crate) fn type_error(expected: &str, got: &Value<'_>) -> Self {
        Problem {
            code: DiagCode::InvalidType,
            message: format!("expected {expected}, found {}", got.type_name()),
        }
    }
}

/// How a field's JSON value is checked. Every event struct describes its fields with these (see
/// `canonical_events!`), and one shared, non-generic decoder checks them all: the wasm holds one
/// copy of the checks instead of one per field of every struct.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// A string.
    Str,
    /// `true` / `false`.
    Bool,
    /// Any number.
    Number,
    /// A whole number in `0..=MAX_SAFE_INTEGER`.
    Whole,
    /// Any value, kept whole.
    Any,
    /// An object, kept whole.
    Object,
    /// One of these strings (an enumeration's wire names, in declaration order).
    Enum(&'static [&'static str]),
    /// An array whose items are of this kind.
    List(&'static Kind),
}

impl Kind {
    /// What a value of the wrong JSON type is reported as expecting.
    fn expected(self) -> &'static str {
        match self {
            Kind::Str | Kind::Enum(_) => "string",
            Kind::Bool => "boolean",
            Kind::Number => "number",
            Kind::Whole => "integer",
            Kind::Any => "value",
            Kind::Object => "object",
            Kind::List(_) => "array",
        }
    }

    /// Checks `v` against this kind.
    pub fn check<'a>(self, v: Value<'a>) -> Result<Slot<'a>, Problem> {
        match (self, v) {
            (Kind::Str, Value::String(s)) => Ok(Slot::Str(s)),
            (Kind::Bool, Value::Bool(b)) => Ok(Slot::Bool(b)),
            // A literal such as 1e999 parses to infinity (as in `JSON.parse`), which JSON
            // cannot write back (`JSON.stringify` gives null): it would reach the app as null
            // where the type promises a number.
            (Kind::Number, Value::Number(n)) if !n.is_finite() => Err(Problem {
                code: DiagCode::OutOfRange,
                message: "expected a number, found one beyond the range of a double".to_owned(),
            }),
            (Kind::Number, Value::Number(n)) => Ok(Slot::Number(n)),
            (Kind::Whole, Value::Number(n)) => {
                if n.fract() == 0.0 && (0.0..=MAX_SAFE_INTEGER).contains(&n) {
                    Ok(Slot::Whole(n as u64))
                } else {
                    Err(Problem {
                        code: DiagCode::OutOfRange,
                        message: format!(
                            "expected a whole number >= 0, found {}",
                            crate::json::Num(n)
                        ),
                    })
                }
            }
            (Kind::Any, v) => Ok(Slot::Value(v)),
            (Kind::Object, v @ Value::Object(_)) => Ok(Slot::Value(v)),
            (Kind::Enum(names), Value::String(s)) => match names.iter().position(|n| *n == s) {
                Some(i) => Ok(Slot::Enum(i)),
                None => Err(Problem {
                    code: DiagCode::InvalidEnum,
                    message: format!(
                        "{} is not one of {}",
                        crate::json::Quoted(s.as_ref()),
                        names.join(", ")
                    ),
                }),
            },
            (Kind::List(item), Value::Array(items)) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, v) in items.into_iter().enumerate() {
                    match item.check(v) {
                        Ok(x) => out.push(x),
                        Err(p) => {
                            return Err(Problem {
                                code: p.code,
                                message: format!("item {i}: {}", p.message),
                            })
                        }
                    }
                }
                Ok(Slot::List(out))
            }
            (kind, other) => Err(Problem::type_error(kind.expected(), &other)),
        }
    }
}

/// A checked field value ([`Kind::check`]), before it moves into its struct.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Slot<'a> {
    /// Not seen (yet).
    #[default]
    Missing,
    /// An optional field that is absent or `null`.
    Null,
    /// [`Kind::Str`].
    Str(Str<'a>),
    /// [`Kind::Bool`].
    Bool(bool),
    /// [`Kind::Number`].
    Number(f64),
    /// [`Kind::Whole`].
    Whole(u64),
    /// [`Kind::Any`] and [`Kind::Object`].
    Value(Value<'a>),
    /// [`Kind::Enum`]: the index of the name.
    Enum(usize),
    /// [`Kind::List`].
    List(Vec<Slot<'a>>),
}

/// One field of an event struct: its wire name, kind and optionality.
#[derive(Debug, Clone, Copy)]
pub struct FieldSpec {
    /// The JSON member name.
    pub wire: &'static str,
    /// How its value is checked.
    pub kind: Kind,
    /// Optional: absent or `null` is `None`, an invalid value is dropped with a warning.
    pub optional: bool,
}

/// A type that can be a field of a canonical event.
pub trait Field<'a>: WriteField + Sized {
    /// How the JSON value is checked.
    const KIND: Kind;
    /// Whether an invalid value may be dropped (optional fields) instead of rejecting the event.
    const OPTIONAL: bool = false;
    /// The value from a slot [`Kind::check`] filled for [`Field::KIND`] ([`Slot::Null`]: an
    /// optional field is absent). Any other slot cannot happen (the event decoder checks every
    /// field first) and gives a neutral value (empty string, `false`, `0`, `null`, `{}`, the
    /// first name of an enumeration): no error path, so no unwinding code per field.
    fn from_slot(s: Slot<'a>) -> Self;
    /// Reads the value.
    fn from_json(v: Value<'a>) -> Result<Self, Problem> {
        Ok(Self::from_slot(match v {
            Value::Null if Self::OPTIONAL => Slot::Null,
            v => Self::KIND.check(v)?,
        }))
    }
    /// The value when the field is absent: `Some` for optional fields, `None` when required.
    fn missing() -> Option<Self> {
        Self::OPTIONAL.then(|| Self::from_slot(Slot::Null))
    }
}

/// Writing a field's value (object safe: one shared writer takes the fields of any event struct
/// as `&dyn WriteField`).
pub trait WriteField {
    /// Writes the value; returns false (writing nothing) when the field is absent.
    fn write(&self, out: &mut String) -> bool;
}

/// Checks the members of an event object against `spec` (one shared copy for every event struct).
///
/// Each member named in `spec` is checked in document order into its slot (a repeated member is
/// checked each time: the last valid copy is kept, and an invalid copy is reported as a problem
/// of its own, which for a required field rejects the event even when a later copy is valid:
/// duplicate members are not something to guess about), other members except `kind` go to
/// `extra`. Problems
/// go to `sink`; an absent optional field becomes [`Slot::Null`], an absent required one is
/// reported missing. Returns false when the event is rejected.
pub(crate) fn decode_fields<'a>(
    entries: Vec<(Str<'a>, Value<'a>)>,
    spec: &[FieldSpec],
    slots: &mut [Slot<'a>],
    extra: &mut Vec<(Str<'a>, Value<'a>)>,
    sink: &mut FieldSink,
) -> bool {
    // Members usually come in the declared order: the search starts after the last match.
    let mut next = 0;
    for (k, v) in entries {
        if k == "kind" {
            continue;
        }
        let found = (next..spec.len())
            .chain(0..next)
            .find(|&i| spec.get(i).is_some_and(|f| f.wire == k));
        let (Some(f), Some(slot)) = (
            found.and_then(|i| spec.get(i)),
            found.and_then(|i| slots.get_mut(i)),
        ) else {
            extra.push((k, v));
            continue;
        };
        next = found.map_or(0, |i| i + 1);
        // Strings are most fields: stored here without the general check's frame and moves.
        match (f.kind, v) {
            (Kind::Str, Value::String(s)) => *slot = Slot::Str(s),
            (_, Value::Null) if f.optional => *slot = Slot::Null,
            (kind, v) => match kind.check(v) {
                Ok(x) => *slot = x,
                Err(p) => sink.problem(f.wire, f.optional, p),
            },
        }
    }
    for (f, slot) in spec.iter().zip(slots.iter_mut()) {
        if matches!(slot, Slot::Missing) {
            if f.optional {
                *slot = Slot::Null;
            } else {
                sink.missing(f.wire);
            }
        }
    }
    !sink.failed
}

/// Appends `,"field":value` for every present field (`values` in `spec` order), then the
/// members the protocol does not define (one shared copy for every event struct).
pub(crate) fn write_fields(
    spec: &[FieldSpec],
    values: &[&dyn WriteField],
    extra: &[(Str<'_>, Value<'_>)],
    out: &mut String,
) {
    for (f, v) in spec.iter().zip(values) {
        let mark = out.len();
        out.push_str(",\"");
        out.push_str(f.wire);
        out.push_str("\":");
        if !v.write(out) {
            out.truncate(mark);
        }
    }
    for (k, v) in extra {
        out.push(',');
        write_str(out, k);
        out.push(':');
        v.write(out);
    }
}

impl<'a> Field<'a> for Str<'a> {
    const KIND: Kind = Kind::Str;
    fn from_slot(s: Slot<'a>) -> Self {
        match s {
            Slot::Str(s) => s,
            _ => Str::Borrowed(""),
        }
    }
}

impl WriteField for Str<'_> {
    fn write(&self, out: &mut String) -> bool {
        write_str(out, self);
        true
    }
}

impl<'a> Field<'a> for bool {
    const KIND: Kind = Kind::Bool;
    fn from_slot(s: Slot<'a>) -> Self {
        matches!(s, Slot::Bool(true))
    }
}

impl WriteField for bool {
    fn write(&self, out: &mut String) -> bool {
        out.push_str(if *self { "true" } else { "false" });
        true
    }
}

impl<'a> Field<'a> for f64 {
    const KIND: Kind = Kind::Number;
    fn from_slot(s: Slot<'a>) -> Self {
        match s {
            Slot::Number(n) => n,
            _ => 0.0,
        }
    }
}

impl WriteField for f64 {
    fn write(&self, out: &mut String) -> bool {
        write_number(out, *self);
        true
    }
}

/// The largest integer a JavaScript number holds exactly.
pub const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// A non-negative whole number (chunk indices, counters), exact in JavaScript.
impl<'a> Field<'a> for u64 {
    const KIND: Kind = Kind::Whole;
    fn from_slot(s: Slot<'a>) -> Self {
        match s {
            Slot::Whole(n) => n,
            _ => 0,
        }
    }
}

impl WriteField for u64 {
    fn write(&self, out: &mut String) -> bool {
        write_number(out, *self as f64);
        true
    }
}

/// Any JSON value, kept whole.
impl<'a> Field<'a> for Value<'a> {
    const KIND: Kind = Kind::Any;
    fn from_slot(s: Slot<'a>) -> Self {
        match s {
            Slot::Value(v) => v,
            _ => Value::Null,
        }
    }
}

impl WriteField for Value<'_> {
    fn write(&self, out: &mut String) -> bool {
        self.write(out);
        true
    }
}

/// A JSON object, kept whole (`metadata`, `arguments`, `data`, `state`).
#[derive(tsify::Tsify, Debug, Clone, PartialEq, Default)]
#[tsify(type = "Record<string, unknown>")]
pub struct JsonObject<'a>(pub Value<'a>);

impl<'a> JsonObject<'a> {
    /// The member `key`, if present.
    pub fn get(&self, key: &str) -> Option<&Value<'a>> {
        self.0.get(key)
    }
    /// Detaches from the input.
    pub fn into_owned(self) -> JsonObject<'static> {
        JsonObject(self.0.into_owned())
    }
}

impl<'a> Field<'a> for JsonObject<'a> {
    const KIND: Kind = Kind::Object;
    fn from_slot(s: Slot<'a>) -> Self {
        match s {
            Slot::Value(v @ Value::Object(_)) => JsonObject(v),
            _ => JsonObject(Value::Object(Vec::new())),
        }
    }
}

impl WriteField for JsonObject<'_> {
    fn write(&self, out: &mut String) -> bool {
        self.0.write(out);
        true
    }
}

impl<'a, T: Field<'a>> Field<'a> for Vec<T> {
    const KIND: Kind = Kind::List(&T::KIND);
    fn from_slot(s: Slot<'a>) -> Self {
        match s {
            Slot::List(items) => items.into_iter().map(T::from_slot).collect(),
            _ => Vec::new(),
        }
    }
}

impl<T: WriteField> WriteField for Vec<T> {
    fn write(&self, out: &mut String) -> bool {
        out.push('[');
        for (i, item) in self.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            if !item.write(out) {
                out.push_str("null");
            }
        }
        out.push(']');
        true
    }
}

/// Optional fields: absent or `null` is `None`; an invalid value is dropped with a warning.
impl<'a, T: Field<'a>> Field<'a> for Option<T> {
    const KIND: Kind = T::KIND;
    const OPTIONAL: bool = true;
    fn from_slot(s: Slot<'a>) -> Self {
        match s {
            Slot::Null => None,
            s => Some(T::from_slot(s)),
        }
    }
}

impl<T: WriteField> WriteField for Option<T> {
    fn write(&self, out: &mut String) -> bool {
        match self {
            Some(v) => v.write(out),
            None => false,
        }
    }
}

/// Defines a string enumeration field type with its wire names.
macro_rules! str_enum {
    ($(#[doc = $doc:literal])* $name:ident { $( $(#[doc = $vdoc:literal])* $variant:ident = $wire:literal, )* }) => {
        $(#[doc = $doc])*
        #[derive(tsify::Tsify, Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[doc = $vdoc])* #[serde(rename = $wire)] $variant, )*
        }
        impl $name {
            /// The wire name.
            pub fn as_str(self) -> &'static str {
                match self { $( $name::$variant => $wire, )* }
            }
            /// Parses a wire name.
            pub fn parse(s: &str) -> Option<Self> {
                match s { $( $wire => Some($name::$variant), )* _ => None }
            }
            /// Every wire name, in order.
            pub const NAMES: &'static [&'static str] = &[$( $wire, )*];
        }
        impl $crate::json::WriteJson for $name {
            fn write_json(&self, out: &mut String) {
                $crate::json::write_str(out, self.as_str())
            }
        }
        impl<'a> $crate::events::field::Field<'a> for $name {
            const KIND: $crate::events::field::Kind = $crate::events::field::Kind::Enum($name::NAMES);
            fn from_slot(s: $crate::events::field::Slot<'a>) -> Self {
                const VARIANTS: &[$name] = &[$( $name::$variant, )*];
                const FIRST: $name = VARIANTS[0];
                match s {
                    $crate::events::field::Slot::Enum(i) => VARIANTS.get(i).copied().unwrap_or(FIRST),
                    _ => FIRST,
                }
            }
        }

        impl $crate::events::field::WriteField for $name {
            fn write(&self, out: &mut String) -> bool {
                $crate::json::write_str(out, self.as_str());
                true
            }
        }
    };
}
pub(crate) use str_enum;
