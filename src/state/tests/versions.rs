//! The version: it moves only with visible state.

use super::*;

#[test]
fn version_changes_only_with_visible_state() {
    let mut s = Store::new(Limits::default());
    let e = ev(r#"{"kind":"internal:checkpoint","taskId":"t","iteration":1}"#);
    let before = s.version();
    apply_all(&mut s, &[e]);
    assert_eq!(
        s.version(),
        before,
        "internal events change nothing visible"
    );
    apply_all(
        &mut s,
        &[ev(
            r#"{"kind":"content-delta","taskId":"t","delta":"a","index":0}"#,
        )],
    );
    let v1 = s.version();
    assert!(v1 > before);
    assert_eq!(s.task("t").map(|t| t.revision), Some(v1));
}

#[test]
fn the_version_stays_when_a_chunk_changes_nothing_visible() {
    let limits = Limits {
        max_content_bytes: 2,
        max_artifact_bytes: 2,
        max_dataset_rows: 1,
        ..Limits::default()
    };
    let mut s = Store::new(limits);
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"content-delta","taskId":"t","delta":"a","index":0}"#,
            r#"{"kind":"content-delta","taskId":"t","delta":"bc","index":1}"#,
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"abc","index":0,"complete":false}"#,
            r#"{"kind":"dataset-write","taskId":"t","artifactId":"d","rows":[{"a":0},{"a":1}],"index":0,"complete":false}"#,
        ]),
    );
    let still = [
        // held (index 3 waits for 2), dropped over the content limit, an empty delta
        r#"{"kind":"content-delta","taskId":"t","delta":"x","index":3}"#,
        r#"{"kind":"content-delta","taskId":"t","delta":"d","index":2}"#,
        // dropped over the byte and row limits
        r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"d","index":1,"complete":false}"#,
        r#"{"kind":"dataset-write","taskId":"t","artifactId":"d","rows":[{"a":2}],"index":1,"complete":false}"#,
    ];
    for e in still {
        let before = (visible(&s), s.version());
        apply_all(&mut s, &evs(&[e]));
        assert_eq!((visible(&s), s.version()), before, "{e}");
    }
    // A delta that creates its task is seen even when it is held.
    let v = s.version();
    apply_all(
        &mut s,
        &evs(&[r#"{"kind":"content-delta","taskId":"u","delta":"later","index":1}"#]),
    );
    assert!(s.version() > v);
    assert!(s.task("u").is_some_and(|t| t.revision == s.version()));
}

#[test]
fn state_changes_count_everything_but_diagnostics() {
    // What the WebSocket transport counts as progress: a socket whose frames only became
    // diagnostics or internal events made none.
    let mut store = Store::new(Limits::default());
    apply_all(
        &mut store,
        &[ev(
            r#"{"kind":"task-created","taskId":"t","initiator":"user"}"#,
        )],
    );
    let after_task = store.state_changes();
    assert!(after_task > 0);
    let version = store.version();
    store.push_diagnostic(crate::events::Diagnostic::new(
        DiagCode::SseEventTooLarge,
        crate::events::Severity::Error,
        "a frame was dropped",
        "",
    ));
    assert!(store.version() > version, "the diagnostic is visible");
    assert_eq!(codes(&store), [DiagCode::SseEventTooLarge]);
    assert_eq!(
        store.state_changes(),
        after_task,
        "diagnostics are no progress"
    );
    apply_all(
        &mut store,
        &[ev(
            r#"{"kind":"internal:checkpoint","taskId":"t","iteration":1}"#,
        )],
    );
    assert_eq!(
        store.state_changes(),
        after_task,
        "internal events are no progress"
    );
    apply_all(
        &mut store,
        &[ev(
            r#"{"kind":"task-status","taskId":"t","status":"working"}"#,
        )],
    );
    assert!(store.state_changes() > after_task);
}
