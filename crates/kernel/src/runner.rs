//! The reproducible parallel runner: N samples in fixed chunks, one generator
//! per chunk, merged counts out.
//!
//! The samples are split into chunks of [`CHUNK_SAMPLES`]; how many chunks
//! there are depends on N alone, never on the thread count. Chunk i draws from
//! its own generator seeded from (seed, i), so it produces the same codes
//! whichever thread runs it and whenever. Chunks are folded into per-thread
//! tallies and the tallies merged; merging adds integer counts, so the result
//! is the same on 1 thread or 64. Memory is a few tallies, whatever N is.

use crate::dice::{Dice, chunk_generator};
use crate::outcome::Tally;
use crate::scenario::Scenario;
use rayon::prelude::*;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Samples per chunk (the last chunk may be shorter).
pub const CHUNK_SAMPLES: u64 = 1 << 16;

/// How to run.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// The number of samples.
    pub samples: u64,
    /// The seed of the whole run.
    pub seed: u64,
    /// Worker threads; 0 means one per available core.
    pub threads: usize,
    /// Incremented by each finished chunk's samples, for a progress bar.
    pub progress: Option<Arc<AtomicU64>>,
    /// When set, the run stops at the next chunk boundary with [`RunError::Cancelled`].
    pub cancel: Option<Arc<AtomicBool>>,
}

impl RunOptions {
    /// `samples` samples from `seed` on every core.
    pub fn new(samples: u64, seed: u64) -> RunOptions {
        RunOptions { samples, seed, ..RunOptions::default() }
    }

    /// The same, on `threads` threads.
    pub fn with_threads(mut self, threads: usize) -> RunOptions {
        self.threads = threads;
        self
    }
}

/// Why a run produced no counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The cancel flag was raised.
    Cancelled,
    /// The thread pool could not be built.
    ThreadPool(String),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Cancelled => write!(f, "the run was cancelled"),
            RunError::ThreadPool(why) => write!(f, "could not start worker threads: {why}"),
        }
    }
}

impl std::error::Error for RunError {}

/// The number of chunks N samples are split into.
pub fn chunk_count(samples: u64) -> u64 {
    samples.div_ceil(CHUNK_SAMPLES)
}

/// The number of samples in chunk `index` of a run of `samples`.
pub fn chunk_len(samples: u64, index: u64) -> u64 {
    (samples - index * CHUNK_SAMPLES).min(CHUNK_SAMPLES)
}

/// Runs chunk `index` of a run seeded with `seed` into `tally`.
#[inline]
pub fn run_chunk<S: Scenario + ?Sized>(scenario: &S, seed: u64, index: u64, samples: u64, tally: &mut Tally) {
    let mut dice = Dice::from_generator(chunk_generator(seed, index));
    tally.record_each(samples, || scenario.sample(&mut dice));
}

/// Runs a scenario: the merged counts of its outcome codes.
pub fn run<S: Scenario + ?Sized>(scenario: &S, options: &RunOptions) -> Result<Tally, RunError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|e| RunError::ThreadPool(e.to_string()))?;
    let space = scenario.code_space();
    let chunks = chunk_count(options.samples);
    pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .try_fold(
                || Tally::new(space),
                |mut tally, index| {
                    if options.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
                        return Err(RunError::Cancelled);
                    }
                    let len = chunk_len(options.samples, index);
                    run_chunk(scenario, options.seed, index, len, &mut tally);
                    if let Some(progress) = &options.progress {
                        progress.fetch_add(len, Ordering::Relaxed);
                    }
                    Ok(tally)
                },
            )
            .try_reduce(
                || Tally::new(space),
                |mut left, right| {
                    left.merge(right);
                    Ok(left)
                },
            )
    })
}
