//! The macro that defines canonical event structs: the Rust type, its generated TypeScript
//! declaration (tsify), its decoder with per-field diagnostics, and its JSON writer.

/// Defines one struct per event kind plus the `AgentEvent` union over them.
macro_rules! canonical_events {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident = $kind:literal {
            $( $(#[$fattr:meta])* $field:ident : $ty:ty = $wire:literal, )*
        }
    )*) => {
        $(
            $(#[doc = $doc])*
            #[derive(tsify::Tsify, Debug, Clone, PartialEq)]
            pub struct $name<'a> {
                $( $(#[$fattr])* #[serde(rename = $wire)] pub $field: $ty, )*
                /// Fields the protocol does not define, kept for a lossless round trip (not typed).
                #[serde(skip)]
                pub extra: Vec<($crate::events::Str<'a>, $crate::json::Value<'a>)>,
            }

            impl<'a> $name<'a> {
                /// The `kind` string of this event.
                pub const KIND: &'static str = $kind;

                /// How each field is checked (by the shared `field::decode_fields`).
                const SPEC: &'static [$crate::events::field::FieldSpec] = &[$(
                    $crate::events::field::FieldSpec {
                        wire: $wire,
                        kind: <$ty as $crate::events::field::Field<'a>>::KIND,
                        optional: <$ty as $crate::events::field::Field<'a>>::OPTIONAL,
                    },
                )*];

                /// Reads the fields of an event object, reporting each problem to `sink`.
                /// Returns `None` when a required field is missing or invalid.
                pub(crate) fn decode(
                    entries: Vec<($crate::events::Str<'a>, $crate::json::Value<'a>)>,
                    sink: &mut $crate::events::field::FieldSink,
                ) -> Option<Self> {
                    use $crate::events::field::{Field, Slot};
                    let mut slots = [$( { let _ = $wire; Slot::Missing }, )*];
                    let mut extra = Vec::new();
                    if !$crate::events::field::decode_fields(entries, Self::SPEC, &mut slots, &mut extra, sink) {
                        return None;
                    }
                    let [$( $field, )*] = slots;
                    Some(Self { $( $field: <$ty as Field<'a>>::from_slot($field), )* extra })
                }

                /// Appends `,"field":value` for every present field (after `kind`).
                pub(crate) fn write_fields(&self, out: &mut String) {
                    use $crate::events::field::WriteField;
                    $crate::events::field::write_fields(
                        Self::SPEC,
                        &[$( &self.$field as &dyn WriteField, )*],
                        &self.extra,
                        out,
                    );
                }
            }
        )*

        /// Every canonical event (protocol 000), discriminated by `kind`.
        ///
        /// In TypeScript: `if (e.kind === "tool-progress") e.progress` type-checks.
        #[derive(tsify::Tsify, Debug, Clone, PartialEq)]
        #[serde(tag = "kind")]
        pub enum AgentEvent<'a> {
            $( $(#[doc = $doc])* #[serde(rename = $kind)] $name($name<'a>), )*
            /// An event whose kind this version does not know, kept whole (forward compatibility).
            #[serde(rename = "unknown")]
            Unknown(UnknownEvent<'a>),
        }

        /// The `kind` strings of every known event, in declaration order.
        pub const KINDS: &[&str] = &[$( $kind, )*];

        /// One value per known event, in declaration order: `as usize` is the kind's position
        /// in [`KINDS`].
        #[allow(dead_code)]
        #[derive(Clone, Copy)]
        enum KindOrdinal { $( $name, )* }

        // Each ordinal names its own kind in `KINDS` (checked when compiling).
        const _: () = {
            const fn same(a: &str, b: &str) -> bool {
                let (a, b) = (a.as_bytes(), b.as_bytes());
                if a.len() != b.len() {
                    return false;
                }
                let mut i = 0;
                while i < a.len() {
                    if a[i] != b[i] {
                        return false;
                    }
                    i += 1;
                }
                true
            }
            $( assert!(same(KINDS[KindOrdinal::$name as usize], $kind)); )*
        };

        impl<'a> AgentEvent<'a> {
            /// The position of the event's kind in [`KINDS`] (`None` for unknown events),
            /// without comparing kind strings.
            pub fn kind_index(&self) -> Option<usize> {
                match self {
                    $( AgentEvent::$name(_) => Some(KindOrdinal::$name as usize), )*
                    AgentEvent::Unknown(_) => None,
                }
            }

            /// The event's `kind` (for unknown events: `"unknown"`; see [`UnknownEvent::unknown_kind`]).
            pub fn kind(&self) -> &'static str {
                match self { $( AgentEvent::$name(_) => $kind, )* AgentEvent::Unknown(_) => "unknown" }
            }

            /// The event as compact JSON (canonical field names, unknown fields kept).
            pub fn write_json(&self, out: &mut String) {
                match self {
                    $( AgentEvent::$name(e) => {
                        out.push_str(concat!("{\"kind\":\"", $kind, "\""));
                        e.write_fields(out);
                        out.push('}');
                    } )*
                    AgentEvent::Unknown(e) => e.write_json(out),
                }
            }

            pub(crate) fn decode_known(
                kind: &str,
                entries: Vec<($crate::events::Str<'a>, $crate::json::Value<'a>)>,
                sink: &mut $crate::events::field::FieldSink,
            ) -> Result<Option<Self>, Vec<($crate::events::Str<'a>, $crate::json::Value<'a>)>> {
                match kind {
                    $( $kind => Ok($name::decode(entries, sink).map(AgentEvent::$name)), )*
                    _ => Err(entries),
                }
            }
        }
    };
}
pub(crate) use canonical_events;
