//! Tasks and subtasks: announcement order, parents, terminal states, rules between events.

use super::*;

#[test]
fn subtree_in_either_announcement_order() {
    let mut s = Store::new(Limits::default());
    let evs: Vec<String> = [
        r#"{"kind":"task-created","taskId":"root","initiator":"user"}"#,
        r#"{"kind":"subtask-created","taskId":"root","subtaskId":"a","prompt":"do a"}"#,
        r#"{"kind":"task-created","taskId":"b","parentTaskId":"root","initiator":"agent"}"#,
        r#"{"kind":"subtask-created","taskId":"root","subtaskId":"b","prompt":"do b"}"#,
        r#"{"kind":"task-created","taskId":"a","parentTaskId":"root","initiator":"agent"}"#,
        r#"{"kind":"task-created","taskId":"a1","parentTaskId":"a","initiator":"agent"}"#,
    ]
    .iter()
    .map(|e| ev(e))
    .collect();
    apply_all(&mut s, &evs);
    assert_eq!(
        s.task("root").map(|t| t.children.clone()),
        Some(vec!["a".to_owned(), "b".to_owned()])
    );
    assert_eq!(
        s.task("b").and_then(|t| t.prompt.clone()).as_deref(),
        Some("do b")
    );
    assert!(s.is_in_subtree("a1", "root"));
    assert!(!s.is_in_subtree("b", "a"));
    assert_eq!(s.roots().count(), 1);
    assert!(codes(&s).is_empty());
}

#[test]
fn rules_between_events_become_diagnostics() {
    let mut s = Store::new(Limits::default());
    let evs: Vec<String> = [
        r#"{"kind":"tool-progress","taskId":"t","toolCallId":"x","progress":0.5}"#,
        r#"{"kind":"input-received","taskId":"t","inputId":"nope","providedBy":"user"}"#,
        r#"{"kind":"auth-completed","taskId":"t","authId":"nope","userId":"u"}"#,
        r#"{"kind":"task-status","taskId":"t","status":"completed"}"#,
        r#"{"kind":"content-delta","taskId":"t","delta":"late","index":0}"#,
        r#"{"kind":"task-status","taskId":"t","status":"working"}"#,
    ]
    .iter()
    .map(|e| ev(e))
    .collect();
    apply_all(&mut s, &evs);
    assert_eq!(
        codes(&s),
        vec![
            DiagCode::ToolNotStarted,
            DiagCode::InputNotOpen,
            DiagCode::AuthNotOpen,
            // The tool the progress announced was still running when the task completed.
            DiagCode::LeftOpen,
            DiagCode::TaskAlreadyTerminal,
            DiagCode::TaskAlreadyTerminal
        ]
    );
    let t = s.task("t").expect("task");
    assert_eq!(t.content, "");
    assert_eq!(t.status, Some(crate::events::TaskStatus::Completed));
    assert_eq!(
        t.tools.len(),
        1,
        "progress without start still shows the tool"
    );
}

#[test]
fn task_complete_after_failed_or_canceled_is_ignored() {
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"content-delta","taskId":"f","delta":"partial","index":0}"#,
            r#"{"kind":"task-status","taskId":"f","status":"failed"}"#,
            r#"{"kind":"task-complete","taskId":"f","content":"other","metadata":{"duration":5}}"#,
            r#"{"kind":"task-status","taskId":"c","status":"canceled"}"#,
            r#"{"kind":"task-complete","taskId":"c","content":"x"}"#,
            r#"{"kind":"task-status","taskId":"ok","status":"completed"}"#,
            r#"{"kind":"task-complete","taskId":"ok","content":"done","metadata":{"duration":7}}"#,
        ]),
    );
    let f = s.task("f").expect("f");
    assert_eq!(
        (f.content.as_str(), f.status, f.duration, f.content_complete),
        ("partial", Some(TaskStatus::Failed), None, false)
    );
    assert_eq!(s.task("c").map(|t| t.content.as_str()), Some(""));
    let ok = s.task("ok").expect("ok");
    assert_eq!((ok.content.as_str(), ok.duration), ("done", Some(7.0)));
    assert_eq!(
        codes(&s),
        vec![DiagCode::TaskAlreadyTerminal, DiagCode::TaskAlreadyTerminal]
    );
}

#[test]
fn a_conflicting_parent_creates_no_phantom_task() {
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[
            r#"{"kind":"task-created","taskId":"root","initiator":"user"}"#,
            r#"{"kind":"subtask-created","taskId":"root","subtaskId":"a","prompt":"p"}"#,
            r#"{"kind":"task-created","taskId":"a","parentTaskId":"elsewhere","initiator":"agent"}"#,
        ]),
    );
    assert!(s.task("elsewhere").is_none());
    assert_eq!(s.tasks().count(), 2);
    assert_eq!(
        s.task("a").and_then(|t| t.parent_id.as_deref()),
        Some("root")
    );
    assert_eq!(codes(&s), vec![DiagCode::ParentConflict]);
}

#[test]
fn a_subtask_announced_only_by_its_parent_has_a_creation_time() {
    let mut s = Store::new(Limits::default());
    apply_all(
        &mut s,
        &evs(&[r#"{"kind":"subtask-created","taskId":"root","subtaskId":"a","prompt":"p"}"#]),
    );
    assert_eq!(s.task("a").and_then(|t| t.created_at.as_deref()), Some(TS));
}
