//! The checker (see issue 3).
