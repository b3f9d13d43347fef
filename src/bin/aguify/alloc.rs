//! The global allocator: mimalloc (feature `mimalloc`, on by default). Parse threads allocate
//! and free a tree per input line; glibc's per-thread arenas spent a third of their time on it
//! (docs/performance.md). Shared with benches/throughput.rs so in-process figures match.

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
