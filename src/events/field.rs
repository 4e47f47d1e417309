//! Field decoding: how each Rust field type is read from JSON and written back.

use super::diagnostic::DiagCode;
use crate::json::{write_number, write_str, Value};
use std::borrow::Cow;

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

/// A type that can be a field of a canonical event.
pub trait Field<'a>: Sized {
    /// Reads the value.
    fn from_json(v: Value<'a>) -> Result<Self, Problem>;
    /// The value when the field is absent: `Some` for optional fields, `None` when required.
    fn missing() -> Option<Self> {
        None
    }
    /// Whether an invalid value may be dropped (optional fields) instead of rejecting the event.
    const OPTIONAL: bool = false;
    /// Writes the value; returns false (writing nothing) when the field is absent.
    fn write(&self, out: &mut String) -> bool;
}

impl<'a> Field<'a> for Str<'a> {
    fn from_json(v: Value<'a>) -> Result<Self, Problem> {
        match v {
            Value::String(s) => Ok(s),
            other => Err(Problem::type_error("string", &other)),
        }
    }
    fn write(&self, out: &mut String) -> bool {
        write_str(out, self);
        true
    }
}

impl<'a> Field<'a> for bool {
    fn from_json(v: Value<'a>) -> Result<Self, Problem> {
        match v {
            Value::Bool(b) => Ok(b),
            other => Err(Problem::type_error("boolean", &other)),
        }
    }
    fn write(&self, out: &mut String) -> bool {
        out.push_str(if *self { "true" } else { "false" });
        true
    }
}

impl<'a> Field<'a> for f64 {
    fn from_json(v: Value<'a>) -> Result<Self, Problem> {
        match v {
            Value::Number(n) => Ok(n),
            other => Err(Problem::type_error("number", &other)),
        }
    }
    fn write(&self, out: &mut String) -> bool {
        write_number(out, *self);
        true
    }
}

/// The largest integer a JavaScript number holds exactly.
pub const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// A non-negative whole number (chunk indices, counters), exact in JavaScript.
impl<'a> Field<'a> for u64 {
    fn from_json(v: Value<'a>) -> Result<Self, Problem> {
        match v {
            Value::Number(n) if n.fract() == 0.0 && (0.0..=MAX_SAFE_INTEGER).contains(&n) => {
                Ok(n as u64)
            }
            Value::Number(n) => Err(Problem {
                code: DiagCode::OutOfRange,
                message: format!("expected a whole number >= 0, found {n}"),
            }),
            other => Err(Problem::type_error("integer", &other)),
        }
    }
    fn write(&self, out: &mut String) -> bool {
        write_number(out, *self as f64);
        true
    }
}

/// Any JSON value, kept whole.
impl<'a> Field<'a> for Value<'a> {
    fn from_json(v: Value<'a>) -> Result<Self, Problem> {
        Ok(v)
    }
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
    fn from_json(v: Value<'a>) -> Result<Self, Problem> {
        match v {
            Value::Object(_) => Ok(JsonObject(v)),
            other => Err(Problem::type_error("object", &other)),
        }
    }
    fn write(&self, out: &mut String) -> bool {
        self.0.write(out);
        true
    }
}

impl<'a, T: Field<'a>> Field<'a> for Vec<T> {
    fn from_json(v: Value<'a>) -> Result<Self, Problem> {
        match v {
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.into_iter().enumerate() {
                    match T::from_json(item) {
                        Ok(x) => out.push(x),
                        Err(p) => {
                            return Err(Problem {
                                code: p.code,
                                message: format!("item {i}: {}", p.message),
                            })
                        }
                    }
                }
                Ok(out)
            }
            other => Err(Problem::type_error("array", &other)),
        }
    }
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
    fn from_json(v: Value<'a>) -> Result<Self, Problem> {
        match v {
            Value::Null => Ok(None),
            v => T::from_json(v).map(Some),
        }
    }
    fn missing() -> Option<Self> {
        Some(None)
    }
    const OPTIONAL: bool = true;
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
            fn from_json(v: $crate::json::Value<'a>) -> Result<Self, $crate::events::field::Problem> {
                match v.as_str() {
                    Some(s) => $name::parse(s).ok_or_else(|| $crate::events::field::Problem {
                        code: $crate::events::DiagCode::InvalidEnum,
                        message: format!("{s:?} is not one of {}", $name::NAMES.join(", ")),
                    }),
                    None => Err($crate::events::field::Problem::type_error("string", &v)),
                }
            }
            fn write(&self, out: &mut String) -> bool {
                $crate::json::write_str(out, self.as_str());
                true
            }
        }
    };
}
pub(crate) use str_enum;
