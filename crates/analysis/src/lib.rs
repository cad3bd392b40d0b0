//! volley's analysis: statistics over the kernel's distributions, Polars frames,
//! balance analytics, charts and reports.

pub mod stats;
