//! `view_struct!`: a struct whose TypeScript declaration (tsify) and JSON output (WriteJson)
//! come from one field list, so what JavaScript receives always matches its generated type.

macro_rules! view_struct {
    (
        $(#[doc = $doc:literal])*
        pub struct $name:ident {
            $( $(#[$fattr:meta])* pub $field:ident : $ty:ty = $wire:literal, )*
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(tsify::Tsify, Debug, Clone, PartialEq, Default)]
        pub struct $name {
            $( $(#[$fattr])* #[serde(rename = $wire)] pub $field: $ty, )*
        }

        impl $crate::json::WriteJson for $name {
            fn write_json(&self, out: &mut String) {
                use $crate::json::WriteJson;
                // `{"key":` first, `,"key":` after: one append per member name.
                let mut first = true;
                $(
                    if WriteJson::is_present(&self.$field) {
                        out.push_str(if first {
                            concat!("{\"", $wire, "\":")
                        } else {
                            concat!(",\"", $wire, "\":")
                        });
                        first = false;
                        WriteJson::write_json(&self.$field, out);
                    }
                )*
                out.push_str(if first { "{}" } else { "}" });
            }
        }
    };
}
pub(crate) use view_struct;
