//! Wire types: one reader per input line kind, typed with `serde` derive, run on the parse
//! threads. What the adapters read of a line is read here once; what is passed on whole
//! (states, tool input and output, custom payloads) stays a tree.

pub mod v2;
pub mod v3;
