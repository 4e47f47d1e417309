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
                out.push('{');
                let mut first = true;
                $(
                    if WriteJson::is_present(&self.$field) {
                        if !first {
                            out.push(',');
                        }
                        first = false;
                        out.push_str(concat!("\"", $wire, "\":"));
                        WriteJson::write_json(&self.$field, out);
                    }
                )*
                let _ = first;
                out.push('}');
            }
        }
    };
}
pub(crate) use view_struct;
