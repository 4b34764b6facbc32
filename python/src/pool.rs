//! The batch's threads (`docs/python.md` "Batched simulation"): a few helper threads kept
//! for the life of a `Batch`, asleep between calls. A call cuts the batch into contiguous
//! chunks, one per thread; the calling thread (the Python thread, the GIL released) plays
//! the first chunk itself while each helper plays one other, and returns when all are done.
//! One wake-up per helper and call, no work stealing, and no thread spinning while it waits
//! (a spinning thread would burn the CPU time the games need on a loaded machine). Tested
//! through the package: `python/tests/test_batch.py::test_the_thread_count_changes_nothing`.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

/// A job as the helpers see it: its lifetime erased (see [`Pool::run`] for why that is sound).
#[derive(Clone, Copy)]
struct Job(*const (dyn Fn(usize) + Sync));

// SAFETY: the pointee is `Sync` and outlives every use (`Pool::run` waits for the helpers).
unsafe impl Send for Job {}

struct State {
    /// Bumped for every call; a helper runs each generation's job once.
    generation: u64,
    job: Option<Job>,
    /// How many chunks the current call has (the caller's included).
    chunks: usize,
    /// Helpers still running the current call's job.
    pending: usize,
    /// A helper's job panicked in the current call.
    panicked: bool,
    quit: bool,
}

struct Shared {
    state: Mutex<State>,
    /// Signalled when a call starts (or the pool is dropped).
    work: Condvar,
    /// Signalled when the last helper of a call is done.
    done: Condvar,
}

fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Helper threads for contiguous chunks of work.
pub struct Pool {
    threads: usize,
    shared: Arc<Shared>,
    helpers: Vec<JoinHandle<()>>,
}

impl Pool {
    /// A pool of `threads` threads in all (the caller's included; at least 1). Helpers are
    /// started on first use.
    pub fn new(threads: usize) -> Pool {
        Pool {
            threads: threads.max(1),
            shared: Arc::new(Shared {
                state: Mutex::new(State {
                    generation: 0,
                    job: None,
                    chunks: 0,
                    pending: 0,
                    panicked: false,
                    quit: false,
                }),
                work: Condvar::new(),
                done: Condvar::new(),
            }),
            helpers: Vec::new(),
        }
    }

    /// The threads a call may use (the caller's included).
    pub fn threads(&self) -> usize {
        self.threads
    }

    fn start_helpers(&mut self, n: usize) {
        while self.helpers.len() < n {
            let index = self.helpers.len() + 1;
            let shared = self.shared.clone();
            let h = std::thread::Builder::new()
                .name(format!("robodrome-batch-{index}"))
                .spawn(move || helper(&shared, index))
                .expect("a batch helper thread");
            self.helpers.push(h);
        }
    }

    /// Run `job(0)`, …, `job(chunks − 1)` (`chunks` at most [`Pool::threads`]), chunk 0 on the
    /// calling thread and each other on a helper, and return when all are done. Panics (after
    /// every chunk has finished) if a chunk panicked.
    pub fn run(&mut self, chunks: usize, job: &(dyn Fn(usize) + Sync)) {
        let chunks = chunks.clamp(1, self.threads);
        if chunks == 1 {
            job(0);
            return;
        }
        self.start_helpers(chunks - 1);
        // SAFETY: the helpers dereference this pointer only between being handed the job
        // here and decrementing `pending`; `Wait` below does not let this function return (or
        // unwind) before `pending` is back to 0, so `job` outlives every use.
        let erased: *const (dyn Fn(usize) + Sync + '_) = job;
        let erased: *const (dyn Fn(usize) + Sync) = unsafe { std::mem::transmute(erased) };
        {
            let mut st = lock(&self.shared.state);
            st.generation += 1;
            st.job = Some(Job(erased));
            st.chunks = chunks;
            st.pending = chunks - 1;
            st.panicked = false;
        }
        self.shared.work.notify_all();
        let wait = Wait(&self.shared);
        job(0);
        drop(wait);
        let mut st = lock(&self.shared.state);
        st.job = None;
        if std::mem::take(&mut st.panicked) {
            drop(st);
            panic!("a batch helper thread panicked");
        }
    }
}

/// Waits for the helpers of the current call when dropped (also when chunk 0 unwinds).
struct Wait<'a>(&'a Shared);

impl Drop for Wait<'_> {
    fn drop(&mut self) {
        let mut st = lock(&self.0.state);
        while st.pending > 0 {
            st = self.0.done.wait(st).unwrap_or_else(PoisonError::into_inner);
        }
    }
}

fn helper(shared: &Shared, index: usize) {
    let mut seen = 0u64;
    loop {
        let job = {
            let mut st = lock(&shared.state);
            loop {
                if st.quit {
                    return;
                }
                if st.generation != seen {
                    seen = st.generation;
                    if index < st.chunks
                        && let Some(job) = st.job
                    {
                        break job;
                    }
                }
                st = shared.work.wait(st).unwrap_or_else(PoisonError::into_inner);
            }
        };
        // SAFETY: see `Pool::run`: the job lives until `pending` reaches 0.
        let ok = catch_unwind(AssertUnwindSafe(|| unsafe { (*job.0)(index) })).is_ok();
        let mut st = lock(&shared.state);
        st.panicked |= !ok;
        st.pending -= 1;
        if st.pending == 0 {
            shared.done.notify_one();
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        lock(&self.shared.state).quit = true;
        self.shared.work.notify_all();
        for h in self.helpers.drain(..) {
            let _ = h.join();
        }
    }
}

/// The number of threads of a batch by default: `RAYON_NUM_THREADS` when set (as before the
/// batch had its own threads), else every core.
pub fn default_threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// `n` items cut into `chunks` contiguous ranges of nearly equal length (the first ones one
/// longer): the range of chunk `k`.
pub fn range(n: usize, chunks: usize, k: usize) -> std::ops::Range<usize> {
    let chunks = chunks.max(1);
    let (q, r) = (n / chunks, n % chunks);
    let start = k * q + k.min(r);
    start..start + q + usize::from(k < r)
}
