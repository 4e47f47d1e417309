//! Limits: diagnostics instead of growth.

use super::*;

#[test]
fn limits_produce_diagnostics_not_growth() {
    let limits = Limits {
        max_tasks: 2,
        max_content_bytes: 4,
        max_pending_chunks: 2,
        max_thoughts_per_task: 1,
        max_diagnostics: 3,
        ..Limits::default()
    };
    let mut s = Store::new(limits);
    let evs: Vec<String> = [
        r#"{"kind":"content-delta","taskId":"t","delta":"abc","index":0}"#,
        r#"{"kind":"content-delta","taskId":"t","delta":"def","index":1}"#,
        r#"{"kind":"content-delta","taskId":"u","delta":"x","index":5}"#,
        r#"{"kind":"content-delta","taskId":"u","delta":"y","index":6}"#,
        r#"{"kind":"content-delta","taskId":"u","delta":"z","index":7}"#,
        r#"{"kind":"task-created","taskId":"v","initiator":"user"}"#,
    ]
    .iter()
    .map(|e| ev(e))
    .collect();
    apply_all(&mut s, &evs);
    assert_eq!(s.task("t").map(|t| t.content.as_str()), Some("abc"));
    assert_eq!(
        s.task("u").map(|t| t.content.as_str()),
        Some("xyz"),
        "window overflow gives up the gap"
    );
    assert!(s.task("v").is_none());
    assert_eq!(
        codes(&s),
        vec![
            DiagCode::LimitExceeded,
            DiagCode::ChunkGap,
            DiagCode::LimitExceeded
        ]
    );
    assert_eq!(s.diagnostics_total(), 3);
}

#[test]
fn an_answer_cut_at_the_content_limit_stays_a_prefix() {
    let mut s = Store::new(Limits {
        max_content_bytes: 4,
        ..Limits::default()
    });
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"content-delta","taskId":"t","delta":"abc","index":0}"#,
            r#"{"kind":"content-delta","taskId":"t","delta":"de","index":1}"#,
            r#"{"kind":"content-delta","taskId":"t","delta":"f","index":2}"#,
        ]),
    );
    assert_eq!(s.task("t").map(|t| t.content.as_str()), Some("abc"));
    assert_eq!(codes(&s), vec![DiagCode::LimitExceeded]);
}
