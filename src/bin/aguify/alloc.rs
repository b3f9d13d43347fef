//! The global allocator (feature `mimalloc`, on by default): blocks under [`LARGE`] from
//! mimalloc, larger ones from the system allocator.
//!
//! - Small blocks: parse threads allocate and free a tree per input line; glibc's per-thread
//!   arenas spent a third of their time on it (docs/performance.md).
//! - Large blocks (a line of a megabyte, its payload strings, the event made of it): mimalloc
//!   keeps freed large blocks committed for a while and, with one thread allocating them and
//!   another freeing them, peak RSS grew with the file (a 190 MB log of 2 MB lines: 54 MiB at
//!   28 MB, 107 MiB at the end). With glibc, each large block is its own mapping, handed back
//!   to the OS when freed, but for the last few freed, kept for the next (`split::big`).
//!
//! Rust passes `dealloc` and `realloc` the layout the block was allocated with, so the size
//! alone tells which allocator owns a block; a `realloc` across the line moves the bytes.
//! Shared with benches/throughput.rs so in-process figures match.

#[cfg(feature = "mimalloc")]
mod split {
    use std::alloc::{GlobalAlloc, Layout, System};

    /// Blocks of this many bytes or more come from the system allocator ([`big`]).
    pub const LARGE: usize = 256 * 1024;

    /// Large blocks: each its own mapping (glibc's `M_MMAP_THRESHOLD` set to [`LARGE`] at
    /// start), handed back to the system when freed, but for the last few freed, kept for the
    /// next large blocks ([`big::CAP`] bytes at most).
    ///
    /// glibc's default moves its mmap threshold up to the largest block freed, after which
    /// large blocks come from its heaps, where blocks of many sizes freed by one thread and
    /// made by another fragment: a log of megabyte lines peaked at 37 MiB for 20 MB live at
    /// 100 MB, 44 MiB at 1 GB. A mapping per block alone returns that, at twice the time
    /// (page faults, and unmapping under two threads). Kept blocks take most of that back:
    /// batch buffers, payload strings and their copies come and go at a few sizes.
    ///
    /// glibc only (`malloc_usable_size`, `mallopt`); elsewhere large blocks go straight to
    /// the system allocator.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    mod big {
        use std::alloc::{GlobalAlloc, Layout, System};
        use std::sync::Mutex;

        /// The most bytes kept.
        pub const CAP: usize = 12 << 20;
        /// The most blocks kept.
        const SLOTS: usize = 16;
        /// glibc's `malloc` alignment: only such blocks are kept (`System` makes them with
        /// `malloc`, any other with `posix_memalign`).
        const MIN_ALIGN: usize = 16;

        pub(super) struct Kept {
            /// (address, usable bytes); `0` addresses are empty slots.
            blocks: [(usize, usize); SLOTS],
            pub(super) bytes: usize,
        }

        pub(super) static KEPT: Mutex<Kept> = Mutex::new(Kept {
            blocks: [(0, 0); SLOTS],
            bytes: 0,
        });

        unsafe extern "C" {
            fn malloc_usable_size(p: *mut u8) -> usize;
        }

        /// The usable size of a block `System` made with `malloc`.
        unsafe fn usable(p: *mut u8) -> usize {
            unsafe { malloc_usable_size(p) }
        }

        /// A kept block of at least `size` bytes and at most `most`, taken out.
        fn take(size: usize, most: usize) -> Option<*mut u8> {
            let mut kept = KEPT.lock().ok()?;
            let (i, &(p, n)) = (kept.blocks.iter().enumerate())
                .filter(|(_, &(p, n))| p != 0 && n >= size && n <= most)
                .min_by_key(|(_, &(_, n))| n)?;
            kept.blocks[i] = (0, 0);
            kept.bytes -= n;
            Some(p as *mut u8)
        }

        /// Keeps a freed block when there is room; `false` when there is none.
        fn keep(p: *mut u8, n: usize) -> bool {
            let Ok(mut kept) = KEPT.lock() else {
                return false;
            };
            if kept.bytes + n > CAP {
                return false;
            }
            let Some(slot) = kept.blocks.iter_mut().find(|(q, _)| *q == 0) else {
                return false;
            };
            *slot = (p as usize, n);
            kept.bytes += n;
            true
        }

        pub unsafe fn alloc(l: Layout) -> *mut u8 {
            if l.align() <= MIN_ALIGN {
                // Not more than twice the size: a kept block holds its pages while in use.
                if let Some(p) = take(l.size(), 2 * l.size()) {
                    return p;
                }
            }
            unsafe { System.alloc(l) }
        }

        pub unsafe fn dealloc(p: *mut u8, l: Layout) {
            if l.align() <= MIN_ALIGN && keep(p, unsafe { usable(p) }) {
                return;
            }
            unsafe { System.dealloc(p, l) }
        }

        pub unsafe fn realloc(p: *mut u8, l: Layout, new: usize) -> *mut u8 {
            if l.align() <= MIN_ALIGN {
                let room = unsafe { usable(p) };
                if new <= room && new >= l.size() {
                    // Grown within the block (a kept block larger than asked for).
                    return p;
                }
                if new > room {
                    // A buffer growing a doubling at a time: a kept block of up to four
                    // times the size saves the next growths too.
                    if let Some(q) = take(new, 4 * new) {
                        unsafe {
                            std::ptr::copy_nonoverlapping(p, q, l.size());
                            dealloc(p, l);
                        }
                        return q;
                    }
                }
            }
            unsafe { System.realloc(p, l, new) }
        }

        /// Sets glibc's mmap threshold: large blocks each their own mapping.
        pub fn set_threshold(large: usize) {
            unsafe extern "C" {
                fn mallopt(param: i32, value: i32) -> i32;
            }
            /// `M_MMAP_THRESHOLD` in malloc.h.
            const M_MMAP_THRESHOLD: i32 = -3;
            // SAFETY: sets a process-wide option of glibc's allocator.
            unsafe { mallopt(M_MMAP_THRESHOLD, large as i32) };
        }
    }

    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    mod big {
        use std::alloc::{GlobalAlloc, Layout, System};

        pub unsafe fn alloc(l: Layout) -> *mut u8 {
            unsafe { System.alloc(l) }
        }

        pub unsafe fn dealloc(p: *mut u8, l: Layout) {
            unsafe { System.dealloc(p, l) }
        }

        pub unsafe fn realloc(p: *mut u8, l: Layout, new: usize) -> *mut u8 {
            unsafe { System.realloc(p, l, new) }
        }

        pub fn set_threshold(_large: usize) {}
    }

    pub use big::set_threshold;

    pub struct Split;

    #[inline(always)]
    fn large(size: usize) -> bool {
        size >= LARGE
    }

    // SAFETY: each block is allocated and freed by the same allocator, chosen by its size,
    // which Rust hands back unchanged with every `dealloc`/`realloc` of it.
    unsafe impl GlobalAlloc for Split {
        #[inline]
        unsafe fn alloc(&self, l: Layout) -> *mut u8 {
            if large(l.size()) {
                unsafe { big::alloc(l) }
            } else {
                unsafe { mimalloc::MiMalloc.alloc(l) }
            }
        }
        #[inline]
        unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
            if large(l.size()) {
                unsafe { System.alloc_zeroed(l) }
            } else {
                unsafe { mimalloc::MiMalloc.alloc_zeroed(l) }
            }
        }
        #[inline]
        unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
            if large(l.size()) {
                unsafe { big::dealloc(p, l) }
            } else {
                unsafe { mimalloc::MiMalloc.dealloc(p, l) }
            }
        }
        #[inline]
        unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
            match (large(l.size()), large(new)) {
                (false, false) => unsafe { mimalloc::MiMalloc.realloc(p, l, new) },
                (true, true) => unsafe { big::realloc(p, l, new) },
                _ => {
                    // SAFETY: `new` is non-zero and, rounded to the alignment, does not
                    // overflow (the `realloc` contract).
                    let nl = unsafe { Layout::from_size_align_unchecked(new, l.align()) };
                    let q = unsafe { self.alloc(nl) };
                    if !q.is_null() {
                        unsafe {
                            std::ptr::copy_nonoverlapping(p, q, l.size().min(new));
                            self.dealloc(p, l);
                        }
                    }
                    q
                }
            }
        }
    }

    #[cfg(test)]
    mod tests {
        /// The tests share the kept blocks: one at a time. (benches/throughput.rs includes
        /// this file without the test harness, where no test uses it.)
        #[allow(dead_code)]
        static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

        /// A freed large block is kept and handed out again, for a block of its size or one
        /// growing into it (bytes kept); no more than `CAP` bytes are kept.
        #[test]
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        fn freed_large_blocks_are_kept_for_the_next() {
            use super::{big, GlobalAlloc, Layout, Split, LARGE};
            let _one = SERIAL.lock();
            let layout = |n| Layout::from_size_align(n, 8).expect("layout");
            // SAFETY: each block is used within its size and handed back with the layout it
            // was last (re)allocated with.
            unsafe {
                let l = layout(3 * LARGE + 7);
                let p = Split.alloc(l);
                assert!(!p.is_null());
                Split.dealloc(p, l);
                let q = Split.alloc(l);
                assert_eq!(q, p, "the kept block");
                Split.dealloc(q, l);
                let small = layout(LARGE);
                let a = Split.alloc(small);
                for i in 0..LARGE {
                    *a.add(i) = (i % 251) as u8;
                }
                let b = Split.realloc(a, small, 2 * LARGE);
                assert_eq!(b, p, "grown into the kept block");
                assert!((0..LARGE).all(|i| *b.add(i) == (i % 251) as u8));
                Split.dealloc(b, layout(2 * LARGE));
                // Many freed at once: no more than CAP kept.
                let many: Vec<_> = (0..2 * big::CAP / LARGE)
                    .map(|_| Split.alloc(small))
                    .collect();
                for p in many {
                    Split.dealloc(p, small);
                }
                let kept = big::KEPT.lock().map(|k| k.bytes).unwrap_or(usize::MAX);
                assert!(kept <= big::CAP, "{kept}");
            }
        }

        /// Threads making, growing and freeing large blocks at once each keep their own bytes:
        /// a kept block is handed to one taker only.
        #[test]
        fn threads_never_share_a_kept_block() {
            use super::{GlobalAlloc, Layout, Split, LARGE};
            let _one = SERIAL.lock();
            let workers: Vec<_> = (0..4u8)
                .map(|t| {
                    std::thread::spawn(move || {
                        let mut seed = 0x9e37_79b9u32.wrapping_mul(u32::from(t) + 1);
                        for _ in 0..200 {
                            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                            let n = LARGE + (seed as usize % (3 * LARGE));
                            let l = Layout::from_size_align(n, 8).expect("layout");
                            // SAFETY: used within its size, handed back with its last layout.
                            unsafe {
                                let p = Split.alloc(l);
                                assert!(!p.is_null());
                                std::ptr::write_bytes(p, t, n);
                                let grown = 2 * n;
                                let q = Split.realloc(p, l, grown);
                                assert!(!q.is_null());
                                std::ptr::write_bytes(q.add(n), t, n);
                                std::thread::yield_now();
                                assert!((0..grown).step_by(4093).all(|i| *q.add(i) == t));
                                assert_eq!(*q.add(grown - 1), t);
                                Split
                                    .dealloc(q, Layout::from_size_align(grown, 8).expect("layout"));
                            }
                        }
                    })
                })
                .collect();
            for w in workers {
                assert!(w.join().is_ok());
            }
        }

        /// A block's bytes survive every move: growing and shrinking across [`LARGE`] (the
        /// block changes allocator) and on either side of it, at alignments up to a page.
        #[test]
        fn blocks_keep_their_bytes_across_the_line() {
            // Imported here: benches/throughput.rs includes this file, without the test
            // harness that keeps the function.
            use super::{GlobalAlloc, Layout, Split, LARGE};
            let _one = SERIAL.lock();
            let sizes = [64, LARGE - 1, LARGE, LARGE + 1, 3 * LARGE, 100];
            for align in [1, 8, 64, 4096] {
                let mut l = Layout::from_size_align(sizes[0], align).expect("layout");
                // SAFETY: layouts of non-zero size; each block is used within its size and
                // handed back with the layout it was last (re)allocated with.
                unsafe {
                    let mut p = Split.alloc_zeroed(l);
                    assert!(!p.is_null());
                    assert!((0..l.size()).all(|i| *p.add(i) == 0));
                    let fill = |p: *mut u8, n: usize| {
                        for i in 0..n {
                            *p.add(i) = (i % 251) as u8;
                        }
                    };
                    fill(p, l.size());
                    for &n in &sizes[1..] {
                        p = Split.realloc(p, l, n);
                        assert!(!p.is_null());
                        assert_eq!(p as usize % align, 0, "align {align}, {n} bytes");
                        let kept = l.size().min(n);
                        assert!(
                            (0..kept).all(|i| *p.add(i) == (i % 251) as u8),
                            "align {align}: {} -> {n} bytes",
                            l.size()
                        );
                        l = Layout::from_size_align(n, align).expect("layout");
                        fill(p, n);
                    }
                    Split.dealloc(p, l);
                }
            }
        }
    }
}

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: split::Split = split::Split;
/// mimalloc commits its first arena eagerly on Linux, and pages freed there stay resident:
/// peak RSS would grow to ~40 MiB. Committing as used keeps it near the system allocator's.
/// The option must be set before the first allocation creates that arena, so this runs as an
/// ELF constructor, before Rust's runtime starts.
#[cfg(all(feature = "mimalloc", target_os = "linux"))]
#[used]
#[unsafe(link_section = ".init_array")]
static MIMALLOC_OPTIONS: extern "C" fn() = {
    extern "C" fn lazy_arena_commit() {
        /// `mi_option_arena_eager_commit` in mimalloc.h.
        const ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
        // SAFETY: sets a process-wide option; no thread and no allocation exist yet.
        unsafe { libmimalloc_sys::mi_option_set(ARENA_EAGER_COMMIT, 0) }
        split::set_threshold(split::LARGE);
    }
    lazy_arena_commit
};
