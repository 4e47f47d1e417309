//! Fault injection, against an in-process server on port 0.

mod common;

use common::*;
use std::time::Duration;

const QUICK: &str = "/api/stream?scenario=quick&speed=0&seed=1";

async fn reference(addr: std::net::SocketAddr) -> Vec<Block> {
    events(&get(addr, &format!("{QUICK}&run=ref")).await.body)
}

/// The same events with the context id of run `ref`.
fn as_ref_run(evs: Vec<Block>, run: &str) -> Vec<Block> {
    evs.into_iter()
        .map(|mut b| {
            b.data = b
                .data
                .map(|d| d.replace(&format!("\"ctx-{run}\""), "\"ctx-ref\""));
            b
        })
        .collect()
}

#[tokio::test]
async fn drop_cuts_the_first_connection_mid_event_and_resume_completes() {
    let addr = server().await;
    let all = reference(addr).await;
    let path = format!("{QUICK}&run=d&faults=drop=5");
    let cut = get(addr, &path).await;
    assert_eq!(cut.status, 200);
    assert!(!cut.ended, "no terminating chunk: the connection was cut");
    assert!(cut.eof);
    let got = as_ref_run(events(&cut.body), "d");
    assert_eq!(got[..], all[..5], "events before the cut arrive whole");
    let text = cut.text();
    assert!(!text.ends_with("\n\n"), "event 5 is cut in the middle");
    let partial = &text[text.rfind("\n\n").expect("blocks") + 2..];
    assert!(partial.starts_with("id: 5\n"), "{partial:?}");
    let data = all[5].data.as_deref().expect("data");
    assert!(
        partial.contains("data: {") && !partial.contains(data),
        "cut mid-line"
    );
    // The reconnect is not dropped again and gets exactly the rest.
    let rest = request(addr, "GET", &path, &[("Last-Event-ID", "4")], None).await;
    assert!(rest.ended);
    assert_eq!(as_ref_run(events(&rest.body), "d")[..], all[5..]);
}

#[tokio::test]
async fn drop_every_k_on_every_connection_still_converges() {
    let addr = server().await;
    let all = reference(addr).await;
    let path = format!("{QUICK}&run=soak&faults=dropEvery=7");
    let mut got: Vec<Block> = Vec::new();
    let mut last: Option<u64> = None;
    for _ in 0..100 {
        let id = last.map(|l| l.to_string());
        let headers: Vec<(&str, &str)> = id.iter().map(|i| ("Last-Event-ID", i.as_str())).collect();
        let r = request(addr, "GET", &path, &headers, None).await;
        let evs = events(&r.body);
        assert!(evs.len() <= 7);
        if let Some(b) = evs.last() {
            last = Some(b.num());
        }
        got.extend(evs);
        if r.ended {
            break;
        }
    }
    assert_eq!(as_ref_run(got, "soak")[..], all[..]);
}

#[tokio::test]
async fn dup_resends_seen_events_before_the_resume_point() {
    let addr = server().await;
    let all = reference(addr).await;
    let path = format!("{QUICK}&run=dup&faults=dup=3");
    get(addr, &path).await;
    let r = request(addr, "GET", &path, &[("Last-Event-ID", "9")], None).await;
    let got = as_ref_run(events(&r.body), "dup");
    assert_eq!(
        got[..3],
        all[7..10],
        "three already-seen events, original ids"
    );
    assert_eq!(got[3..], all[10..], "then exactly the rest");
}

#[tokio::test]
async fn restart_replays_from_zero() {
    let addr = server().await;
    let all = reference(addr).await;
    let path = format!("{QUICK}&run=rs&faults=restart");
    let r = request(addr, "GET", &path, &[("Last-Event-ID", "20")], None).await;
    assert_eq!(as_ref_run(events(&r.body), "rs")[..], all[..]);
}

#[tokio::test]
async fn status_fails_the_first_n_requests() {
    let addr = server().await;
    let path = format!("{QUICK}&run=st&faults=status=500:1");
    let r = get(addr, &path).await;
    assert_eq!(r.status, 500);
    assert_eq!(r.json()["error"], "injected status 500");
    assert!(r.header("access-control-allow-origin").is_some());
    let r = get(addr, &path).await;
    assert_eq!(r.status, 200);
    assert!(!events(&r.body).is_empty());

    let path = format!("{QUICK}&run=st429&faults=status=429:1");
    let r = get(addr, &path).await;
    assert_eq!(r.status, 429);
    assert_eq!(r.header("retry-after"), Some("1"));
    assert_eq!(get(addr, &path).await.status, 200);

    // Without a run id the count is per parameter set, so a retry of the same URL passes.
    let path = format!("{QUICK}&faults=status=503:2");
    assert_eq!(get(addr, &path).await.status, 503);
    assert_eq!(get(addr, &path).await.status, 503);
    assert_eq!(get(addr, &path).await.status, 200);

    for code in [204u16, 401, 408] {
        let r = get(addr, &format!("{QUICK}&run=c{code}&faults=status={code}")).await;
        assert_eq!(r.status, code);
        assert_eq!(
            get(addr, &format!("{QUICK}&run=c{code}&faults=status={code}"))
                .await
                .status,
            code,
            "without :N every request fails"
        );
    }
    let r = post(
        addr,
        "/api/runs",
        r#"{"scenario":"quick","speed":0,"run":"pst","faults":"status=401:1"}"#,
    )
    .await;
    assert_eq!(r.status, 401);
}

#[tokio::test]
async fn ctype_sends_a_wrong_content_type() {
    let addr = server().await;
    let r = get(addr, &format!("{QUICK}&faults=ctype%3Dtext/plain")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("text/plain"));
    assert!(!events(&r.body).is_empty());
}

#[tokio::test]
async fn lose_never_delivers_an_event() {
    let addr = server().await;
    let all = reference(addr).await;
    let path = format!("{QUICK}&run=lose&faults=lose=12,lose=13");
    let got = as_ref_run(events(&get(addr, &path).await.body), "lose");
    let ids: Vec<u64> = got.iter().map(Block::num).collect();
    assert!(!ids.contains(&12) && !ids.contains(&13));
    assert_eq!(got.len(), all.len() - 2);
    // Not on a resume either.
    let r = request(addr, "GET", &path, &[("Last-Event-ID", "10")], None).await;
    assert!(events(&r.body).iter().all(|b| b.num() != 12));
}

#[tokio::test]
async fn shuffle_reorders_chunks_within_windows_only() {
    let addr = server().await;
    let all = reference(addr).await;
    let got = as_ref_run(
        events(
            &get(addr, &format!("{QUICK}&run=sh&faults=shuffle=4"))
                .await
                .body,
        ),
        "sh",
    );
    assert_eq!(got.len(), all.len());
    let ids: Vec<u64> = got.iter().map(Block::num).collect();
    assert_ne!(ids, (0..all.len() as u64).collect::<Vec<_>>(), "reordered");
    for (pos, b) in got.iter().enumerate() {
        assert_eq!(b, &all[b.num() as usize], "ids stay with their events");
        assert_eq!(b.num() / 4, pos as u64 / 4, "within its window of 4");
        let chunk = matches!(
            b.event.as_deref(),
            Some("content-delta" | "file-write" | "dataset-write")
        );
        if !chunk {
            assert_eq!(b.num(), pos as u64, "other events keep their place");
        }
    }
}

#[tokio::test]
async fn malformed_injects_bad_lines_and_keeps_the_real_stream_complete() {
    let addr = server().await;
    let all = reference(addr).await;
    let r = get(addr, &format!("{QUICK}&run=mal&faults=malformed")).await;
    assert!(r.ended);
    assert!(r.body.windows(8).any(|w| w == b"data: \xFF\xFE"));
    let text = r.text();
    assert!(text.contains("\ndata: {not json\n\n"));
    let bl = blocks(&r.body);
    let unknown = bl
        .iter()
        .find(|b| b.event.as_deref() == Some("future-kind"))
        .expect("unknown kind");
    assert!(unknown.id.is_none());
    assert_eq!(unknown.json()["kind"], "future-kind");
    let wrong = bl
        .iter()
        .find(|b| {
            b.id.is_none()
                && b.data
                    .as_deref()
                    .is_some_and(|d| d.contains("\"index\":\"seven\""))
        })
        .expect("wrong type");
    assert_eq!(wrong.json()["kind"], "content-delta");
    // The real events are all there, unchanged.
    assert_eq!(as_ref_run(events(&r.body), "mal")[..], all[..]);
}

#[tokio::test]
async fn huge_sends_one_giant_line_in_pieces() {
    let addr = server().await;
    let all = reference(addr).await;
    let r = get(addr, &format!("{QUICK}&run=huge&faults=huge=1")).await;
    let bl = blocks(&r.body);
    let big = bl
        .iter()
        .find(|b| b.data.as_ref().is_some_and(|d| d.len() > 1 << 20))
        .expect("huge event");
    let v = big.json();
    assert_eq!(v["kind"], "content-delta");
    assert_eq!(v["delta"].as_str().map(str::len), Some(1 << 20));
    assert_eq!(v["index"], 1_000_000);
    assert!(big.id.is_none());
    assert_eq!(as_ref_run(events(&r.body), "huge")[..], all[..]);
}

#[tokio::test]
async fn drip_writes_byte_by_byte_with_the_same_bytes() {
    let addr = server().await;
    let plain = get(addr, "/api/stream?scenario=bulk&events=6&run=dp").await;
    let mut c = open(
        addr,
        "GET",
        "/api/stream?scenario=bulk&events=6&run=dp&faults=drip=1",
        &[],
        None,
    )
    .await;
    // One byte per chunk: the first read sees very little.
    c.more(Duration::from_secs(5)).await;
    assert!(c.body.len() < 64, "{} bytes at once", c.body.len());
    let c = c.finish(30).await;
    assert!(c.ended);
    assert_eq!(c.body, plain.body);
}

#[tokio::test]
async fn silent_goes_quiet_and_a_reconnect_is_served() {
    let addr = server().await;
    let all = reference(addr).await;
    let path = format!("{QUICK}&run=sil&faults=silent=4,heartbeat=20");
    let mut c = open(addr, "GET", &path, &[], None).await;
    assert!(c.wait_for("id: 4\n", Duration::from_secs(5)).await);
    assert!(
        !c.more(Duration::from_millis(400)).await,
        "nothing more, no heartbeats"
    );
    assert!(!c.ended && !c.eof, "still open");
    assert!(!c.text().contains(": hb"));
    drop(c);
    let r = request(addr, "GET", &path, &[("Last-Event-ID", "4")], None).await;
    assert!(r.ended);
    assert_eq!(as_ref_run(events(&r.body), "sil")[..], all[5..]);
}

#[tokio::test]
async fn endless_line_until_the_client_leaves() {
    let addr = server().await;
    let path = format!("{QUICK}&run=end&faults=endless");
    let mut c = open(addr, "GET", &path, &[], None).await;
    while c.body.len() < 512 * 1024 {
        assert!(c.more(Duration::from_secs(5)).await);
    }
    let text = c.text();
    let tail = &text[text.rfind("\n\n").expect("events first")..];
    assert!(tail.starts_with("\n\ndata: abc"));
    assert!(!tail[2..].contains('\n'), "no newline, ever");
    assert_eq!(events(&c.body).len(), 4);
    drop(c);
    // The reconnect is served normally.
    let r = request(addr, "GET", &path, &[("Last-Event-ID", "3")], None).await;
    assert!(r.ended);
}

/// Waits until run `run` has no connection writing any more.
async fn writers_gone(addr: std::net::SocketAddr, run: &str) -> bool {
    for _ in 0..100 {
        let info = get(addr, &format!("/api/runs/{run}")).await.json();
        if info["liveConnections"] == 0 {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    false
}

#[tokio::test]
async fn a_client_that_leaves_frees_its_writer() {
    let addr = server().await;
    for (run, faults, needle) in [
        ("gone-silent", "silent=3", "id: 3\n"),
        ("gone-endless", "endless", "data: abcdef"),
        ("gone-drip", "drip=50", "retry"),
    ] {
        let path = format!("{QUICK}&run={run}&faults={faults}");
        let mut c = open(addr, "GET", &path, &[], None).await;
        assert!(c.wait_for(needle, Duration::from_secs(5)).await, "{run}");
        assert_eq!(
            get(addr, &format!("/api/runs/{run}")).await.json()["liveConnections"],
            1
        );
        drop(c);
        assert!(writers_gone(addr, run).await, "{run}: writer still running");
    }
    // Waiting for an answer (no events, no heartbeat yet).
    let mut c = open(
        addr,
        "GET",
        "/api/stream?scenario=main&speed=0&run=gone-wait",
        &[],
        None,
    )
    .await;
    assert!(
        c.wait_for("\"waiting-input\"", Duration::from_secs(5))
            .await
    );
    drop(c);
    assert!(
        writers_gone(addr, "gone-wait").await,
        "waiting writer still running"
    );
}

#[tokio::test]
async fn crlf_and_cr_rewrite_every_line_end_of_the_framing() {
    let addr = server().await;
    let lf = get(addr, &format!("{QUICK}&run=nl-lf")).await.text();
    for (fault, eol) in [("crlf", "\r\n"), ("cr", "\r")] {
        let text = get(addr, &format!("{QUICK}&run=nl-{fault}&faults={fault}"))
            .await
            .text();
        assert!(text.ends_with(&format!("{eol}{eol}")), "{fault}");
        let back = text.replace(eol, "\n");
        assert_eq!(
            back.replace(&format!("nl-{fault}"), "nl-lf").len(),
            lf.len()
        );
        assert_eq!(events(back.as_bytes()).len(), events(lf.as_bytes()).len());
    }
}
