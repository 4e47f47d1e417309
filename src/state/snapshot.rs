//! The whole state as one JSON document (CLI `state`, tests, and full snapshots for JS).

use super::Store;
use crate::json::WriteJson;

impl Store {
    /// Appends `{"version":…,"tasks":[…],"artifacts":[…],"diagnostics":[…],"stats":{…}}`.
    pub fn write_state_json(&self, out: &mut String) {
        out.push_str("{\"version\":");
        self.version().write_json(out);
        out.push_str(",\"tasks\":[");
        for (i, t) in self.tasks().enumerate() {
            if i > 0 {
                out.push(',');
            }
            t.write_json(out);
        }
        out.push_str("],\"artifacts\":[");
        for (i, a) in self.artifacts().enumerate() {
            if i > 0 {
                out.push(',');
            }
            a.write_json(out);
        }
        out.push_str("],\"diagnostics\":[");
        for (i, d) in self.diagnostics().enumerate() {
            if i > 0 {
                out.push(',');
            }
            d.write_json(out);
        }
        out.push_str("],\"stats\":{\"eventsApplied\":");
        self.events_applied().write_json(out);
        out.push_str(",\"duplicatesIgnored\":");
        self.duplicates_ignored().write_json(out);
        out.push_str(",\"diagnosticsTotal\":");
        self.diagnostics_total().write_json(out);
        out.push_str("}}");
    }

    /// The whole state as JSON text.
    pub fn state_json(&self) -> String {
        let mut s = String::new();
        self.write_state_json(&mut s);
        s
    }
}
