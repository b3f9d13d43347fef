//! The global allocator (feature `mimalloc`, on by default): blocks under [`LARGE`] from
//! mimalloc, larger ones from the system allocator.
//!
//! - Small blocks: parse threads allocate and free a tree per input line; glibc's per-thread
//!   arenas spent a third of their time on it (docs/performance.md).
//! - Large blocks (a line of a megabyte, its payload strings, the event made of it): mimalloc
//!   keeps freed large blocks committed for a while and, with one thread allocating them and
//!   another freeing them, peak RSS grew with the file (a 190 MB log of 2 MB lines: 54 MiB at
//!   28 MB, 107 MiB at the end). glibc hands such blocks back to the OS as they are freed.
//!
//! Rust passes `dealloc` and `realloc` the layout the block was allocated with, so the size
//! alone tells which allocator owns a block; a `realloc` across the line moves the bytes.
//! Shared with benches/throughput.rs so in-process figures match.

#[cfg(feature = "mimalloc")]
mod split {
    use std::alloc::{GlobalAlloc, Layout, System};

    /// Blocks of this many bytes or more come from the system allocator.
    pub const LARGE: usize = 256 * 1024;

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
                unsafe { System.alloc(l) }
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
                unsafe { System.dealloc(p, l) }
            } else {
                unsafe { mimalloc::MiMalloc.dealloc(p, l) }
            }
        }
        #[inline]
        unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
            match (large(l.size()), large(new)) {
                (false, false) => unsafe { mimalloc::MiMalloc.realloc(p, l, new) },
                (true, true) => unsafe { System.realloc(p, l, new) },
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
        /// A block's bytes survive every move: growing and shrinking across [`LARGE`] (the
        /// block changes allocator) and on either side of it, at alignments up to a page.
        #[test]
        fn blocks_keep_their_bytes_across_the_line() {
            // Imported here: benches/throughput.rs includes this file, without the test
            // harness that keeps the function.
            use super::{GlobalAlloc, Layout, Split, LARGE};
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
    }
    lazy_arena_commit
};
