//! The integration tests of vgpu-core, in one test binary (one link, not one per file). All are
//! tier 0 (pure CPU).

mod hostile;
mod layout_table;
mod packing;
mod reflection;
mod shape;
