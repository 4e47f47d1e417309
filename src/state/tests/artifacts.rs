//! Artifacts: files, data, datasets, streamed chunks and their gaps.

use super::*;

#[test]
fn artifacts_files_data_and_datasets() {
    let mut s = Store::new(Limits::default());
    let evs: Vec<String> = [
        r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"aGVs","index":0,"complete":false,"name":"x.bin","mimeType":"application/octet-stream","encoding":"base64"}"#,
        r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"bG8=","index":1,"complete":true}"#,
        r#"{"kind":"data-write","taskId":"t","artifactId":"d","data":{"v":2},"metadata":{"version":2}}"#,
        r#"{"kind":"data-write","taskId":"t","artifactId":"d","data":{"v":1},"metadata":{"version":1}}"#,
        r#"{"kind":"dataset-write","taskId":"t","artifactId":"s","rows":[{"a":1,"b":"x"}],"index":0,"complete":false,"schema":{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string"}}}}"#,
        r#"{"kind":"dataset-write","taskId":"t","artifactId":"s","rows":[{"a":2,"b":"y"},{"a":"bad","b":"z"}],"index":1,"complete":true}"#,
    ]
    .iter()
    .map(|e| ev(e))
    .collect();
    apply_all(&mut s, &evs);
    assert_eq!(s.artifact_bytes("f"), Some(&b"hello"[..]));
    let f = s.artifact("f").expect("file");
    assert_eq!((f.size, f.complete), (Some(5), Some(true)));
    assert_eq!(
        f.sha256.as_deref(),
        Some("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")
    );
    let d = s.artifact("d").expect("data");
    assert_eq!(
        (d.version, d.data.as_ref().map(|r| r.0.as_str())),
        (Some(2.0), Some(r#"{"v":2}"#))
    );
    let ds = s.artifact("s").expect("dataset");
    assert_eq!((ds.row_count, ds.complete), (Some(3), Some(true)));
    assert_eq!(
        s.artifact_rows_json("s").as_deref(),
        Some(r#"[{"a":1,"b":"x"},{"a":2,"b":"y"},{"a":"bad","b":"z"}]"#)
    );
    assert_eq!(
        codes(&s),
        vec![DiagCode::VersionRegression, DiagCode::SchemaMismatch]
    );
    assert_eq!(s.task("t").map(|t| t.artifacts.len()), Some(3));
}

#[test]
fn streamed_artifacts_say_complete_false_until_their_final_chunk() {
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"x","index":0,"complete":false}"#,
            r#"{"kind":"dataset-write","taskId":"t","artifactId":"d","rows":[{"a":1}],"index":0,"complete":false}"#,
            r#"{"kind":"data-write","taskId":"t","artifactId":"r","data":{"a":1}}"#,
        ]),
    );
    assert_eq!(s.artifact("f").and_then(|a| a.complete), Some(false));
    assert_eq!(s.artifact("d").and_then(|a| a.complete), Some(false));
    assert_eq!(s.artifact("r").and_then(|a| a.complete), None);
    let json = s.state_json();
    assert_eq!(json.matches("\"complete\":false").count(), 2, "{json}");
}

#[test]
fn a_file_completed_with_a_gap_is_finalised_once() {
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"a","index":0,"complete":false}"#,
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"c","index":2,"complete":true}"#,
        ]),
    );
    s.finish();
    assert_eq!(s.artifact("f").and_then(|a| a.complete), Some(false));
    let (v, rev) = (s.version(), s.artifact("f").map(|a| a.revision));
    s.finish();
    assert_eq!(s.version(), v, "nothing changed: same version");
    assert_eq!(s.artifact("f").map(|a| a.revision), rev);
}

#[test]
fn an_ended_task_gives_up_its_artifact_gaps_and_reports_missing_ends() {
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"a","index":0,"complete":false}"#,
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"c","index":2,"complete":true}"#,
            r#"{"kind":"dataset-write","taskId":"t","artifactId":"d","rows":[{"a":1}],"index":0,"complete":false}"#,
            r#"{"kind":"file-write","taskId":"u","artifactId":"g","data":"x","index":0,"complete":false}"#,
            r#"{"kind":"task-status","taskId":"t","status":"completed"}"#,
            r#"{"kind":"task-complete","taskId":"t","artifacts":["f","d","g"]}"#,
        ]),
    );
    // Given up at completion, not at the end of the stream; reported once.
    assert_eq!(s.artifact_bytes("f"), Some(&b"ac"[..]));
    assert_eq!(codes(&s), vec![DiagCode::ChunkGap, DiagCode::ChunkGap]);
    // u's file belongs to a task that is still running: only the end of stream reports it.
    s.finish();
    assert_eq!(codes(&s).len(), 3);
    // A canceled task's truncated file is expected: no report.
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"a","index":0,"complete":false}"#,
            r#"{"kind":"task-status","taskId":"t","status":"canceled"}"#,
        ]),
    );
    s.finish();
    assert!(codes(&s).is_empty(), "{:?}", codes(&s));
}

#[test]
fn data_version_history_is_bounded() {
    let mut s = Store::new(Limits::default());
    let list: Vec<String> = (0..200)
        .map(|v| {
            ev(&format!(
                r#"{{"kind":"data-write","taskId":"t","artifactId":"r","data":{{"v":{v}}},"metadata":{{"version":{v}}}}}"#
            ))
        })
        .collect();
    apply_all(&mut s, &list);
    let a = s.artifact("r").expect("r");
    let versions = a.versions.as_ref().expect("versions");
    assert_eq!(versions.len(), crate::state::artifacts::MAX_DATA_VERSIONS);
    assert_eq!(versions.last().and_then(|v| v.version), Some(199.0));
    assert_eq!(a.version, Some(199.0));
}

#[test]
fn a_chunk_held_past_the_final_one_is_dropped_when_the_final_one_arrives() {
    // Files: chunks 3, 2 (final), 0, 1. Chunk 3 comes after the end, as it would be had it
    // arrived after chunk 2.
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"D","index":3,"complete":false}"#,
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"C","index":2,"complete":true}"#,
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"A","index":0,"complete":false}"#,
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"B","index":1,"complete":false}"#,
        ]),
    );
    assert_eq!(s.artifact_bytes("f"), Some(&b"ABC"[..]));
    assert_eq!(s.artifact("f").and_then(|a| a.complete), Some(true));
    assert_eq!(codes(&s), vec![DiagCode::ChunkAfterComplete]);
    // The final chunk arriving in order drops what is held beyond it too.
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"A","index":0,"complete":false}"#,
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"C","index":2,"complete":false}"#,
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"B","index":1,"complete":true}"#,
        ]),
    );
    assert_eq!(s.artifact_bytes("f"), Some(&b"AB"[..]));
    assert_eq!(codes(&s), vec![DiagCode::ChunkAfterComplete]);
    // Datasets: batches 2, 1 (final), 0 hold two batches' rows, not three.
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"dataset-write","taskId":"t","artifactId":"d","rows":[{"a":9}],"index":2,"complete":false}"#,
            r#"{"kind":"dataset-write","taskId":"t","artifactId":"d","rows":[{"a":1}],"index":1,"complete":true}"#,
            r#"{"kind":"dataset-write","taskId":"t","artifactId":"d","rows":[{"a":0}],"index":0,"complete":false}"#,
        ]),
    );
    assert_eq!(s.artifact("d").and_then(|a| a.row_count), Some(2));
    assert_eq!(codes(&s), vec![DiagCode::ChunkAfterComplete]);
}

#[test]
fn a_repeated_or_refused_chunk_0_does_not_change_the_artifact() {
    // A duplicate chunk 0 without `encoding` must not turn a base64 file into text.
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"aGVs","index":0,"complete":false,"name":"hello.bin","encoding":"base64","metadata":{"totalSize":5}}"#,
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"aGVs","index":0,"complete":false}"#,
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"bG8=","index":1,"complete":true}"#,
        ]),
    );
    assert_eq!(s.duplicates_ignored(), 1);
    assert_eq!(s.artifact_bytes("f"), Some(&b"hello"[..]));
    let a = s.artifact("f").expect("artifact");
    assert_eq!(
        (a.name.as_deref(), a.total_size),
        (Some("hello.bin"), Some(5))
    );
    // A chunk 0 refused after the file ended renames nothing.
    let before = (visible(&s), s.version());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"file-write","taskId":"t","artifactId":"f","data":"zzz","index":0,"complete":true,"name":"evil.html","mimeType":"text/html"}"#,
        ]),
    );
    assert_eq!(codes(&s), vec![DiagCode::ChunkAfterComplete]);
    let a = s.artifact("f").expect("artifact");
    assert_eq!(
        (a.name.as_deref(), a.mime_type.as_deref()),
        (Some("hello.bin"), None)
    );
    assert_eq!(s.artifact_bytes("f"), Some(&b"hello"[..]));
    // Only the diagnostic is new.
    assert_eq!(
        visible(&s).matches("evil").count(),
        1,
        "only in the diagnostic's raw event"
    );
    assert!(s.version() > before.1);
    // Datasets: a duplicate batch 0 keeps the name and totals of the first.
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"dataset-write","taskId":"t","artifactId":"d","name":"rows","rows":[{"a":0}],"index":0,"complete":false,"metadata":{"totalRows":2}}"#,
            r#"{"kind":"dataset-write","taskId":"t","artifactId":"d","name":"other","rows":[{"a":0}],"index":0,"complete":false,"metadata":{"totalRows":99}}"#,
        ]),
    );
    let d = s.artifact("d").expect("dataset");
    assert_eq!(
        (d.name.as_deref(), d.total_rows, d.row_count),
        (Some("rows"), Some(2), Some(1))
    );
}
