//! A [criterion] measurement of the benchmark thread's CPU time.
//!
//! Robodrome's benchmarks run on a shared two-core machine where builds and tests of other work
//! run beside them. Wall-clock time then counts the time a benchmark waited for a core; the
//! thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`, through the `cpu-time` crate) does not. On a
//! quiet machine the two agree. Values are durations in nanoseconds, formatted like wall time.
//!
//! ```ignore
//! criterion_group! {
//!     name = benches;
//!     config = bench_cpu::criterion();
//!     targets = bench
//! }
//! ```

use criterion::Criterion;
use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use std::time::Duration;

/// The benchmark thread's CPU time.
pub struct CpuTime;

impl Measurement for CpuTime {
    type Intermediate = cpu_time::ThreadTime;
    type Value = Duration;
    fn start(&self) -> Self::Intermediate {
        cpu_time::ThreadTime::now()
    }
    fn end(&self, started: Self::Intermediate) -> Duration {
        started.elapsed()
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, d: &Duration) -> f64 {
        d.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        static WALL: WallTime = WallTime;
        WALL.formatter()
    }
}

/// A criterion configured to measure CPU time.
pub fn criterion() -> Criterion<CpuTime> {
    Criterion::default().with_measurement(CpuTime)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_work_takes_cpu_time_and_sleeping_does_not() {
        let m = CpuTime;
        let t = m.start();
        std::thread::sleep(Duration::from_millis(30));
        let slept = m.end(t);
        let t = m.start();
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        let busy = m.end(t);
        assert!(slept < Duration::from_millis(20), "sleeping counted {slept:?}");
        assert!(busy > slept, "busy {busy:?} vs slept {slept:?}");
        assert_eq!(m.to_f64(&m.add(&Duration::from_nanos(3), &m.zero())), 3.0);
    }
}
