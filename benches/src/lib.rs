//! Shared benchmark helpers: a counting global allocator and timing statistics.
