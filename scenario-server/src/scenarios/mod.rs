//! The scripted agent runs, in protocol 000. Deterministic for a seed: ids, text, data and
//! timestamps come from the seed and a simulated clock (base 2025-11-06T10:30:00.000Z), never
//! from the wall clock, so two runs with the same seed and the same answers have byte-identical
//! logs. Each script is an async function over a [`ctx::Ctx`].

pub mod approval;
pub mod bulk;
pub mod cancel;
pub mod ctx;
pub mod failure;
pub mod main_demo;
pub mod parts;
pub mod quick;
pub mod xss;

pub use crate::catalog::{list_json, Scenario};
use crate::run::Run;
use std::sync::Arc;

/// Starts `run`'s script: a generated log for `bulk`, a tokio task for the others.
pub fn start(run: &Arc<Run>) {
    if run.spec.scenario == Scenario::Bulk {
        let (len, g) = bulk::generator(run.spec.events, run.spec.seed, run.context_id.clone());
        run.set_generated(len, g);
        return;
    }
    let r = run.clone();
    let handle = tokio::spawn(async move {
        let mut ctx = ctx::Ctx::new(r.clone());
        let result = match r.spec.scenario {
            Scenario::Main => main_demo::run(&mut ctx).await,
            Scenario::Quick => quick::run(&mut ctx).await,
            Scenario::Failure => failure::run(&mut ctx).await,
            Scenario::Cancel => cancel::run(&mut ctx, r.spec.speed <= 0.0).await,
            Scenario::Xss => xss::run(&mut ctx).await,
            Scenario::Approval => approval::run(&mut ctx).await,
            Scenario::Bulk => Ok(()),
        };
        if let Err(stop) = result {
            ctx.stop_all(&stop);
        }
        r.finish();
    });
    run.set_script(handle);
}
