//! Tier 2: the gpu_culling example (written below).
