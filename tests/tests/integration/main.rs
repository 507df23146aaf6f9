//! The integration tests of vgpu, in one test binary (one link, not one per file). Each module's
//! name says the device tier it needs (see `tests/README.md`); `regression` holds the upstream
//! bug report's regression tests, one file per regression.
//!
//! The `backend_*` tests depend on the process environment: each runs its environment-dependent
//! body in a child process of this binary (`vgpu_tests::run_child_test`), as an `#[ignore]`d test
//! that a plain `cargo test` does not run in this process.

mod alloc_count;
mod backend_unavailable;
mod backend_unknown;
mod child_runtime_dir;
mod regression;
mod tier1_advisor;
mod tier1_api_errors;
mod tier1_capture_model;
mod tier1_constant_errors;
mod tier1_device_errors;
mod tier1_error_codes;
mod tier1_faults;
mod tier1_foreign_gpu;
mod tier1_geometry;
mod tier1_group_claim_errors;
mod tier1_image_errors;
mod tier1_indirect_errors;
mod tier1_many_buffers;
mod tier1_memo_invalidation;
mod tier1_occlusion_errors;
mod tier1_prepare;
mod tier1_render_state_errors;
mod tier1_set_errors;
mod tier1_texture_errors;
mod tier1_typed_values;
mod tier2_api_draws;
mod tier2_api_reads;
mod tier2_api_surface;
mod tier2_app;
mod tier2_app_input;
mod tier2_auto_bundles;
mod tier2_by_example;
mod tier2_constants;
mod tier2_deferred;
mod tier2_examples;
mod tier2_existing_app;
mod tier2_frame_features;
mod tier2_gpu_culling;
mod tier2_group_claim;
mod tier2_group_order;
mod tier2_hot_reload;
mod tier2_images;
mod tier2_indirect;
mod tier2_mesh;
mod tier2_mips;
mod tier2_mrt_stencil;
mod tier2_occlusion;
mod tier2_packing_roundtrip;
mod tier2_parallel_finish;
mod tier2_per_pass_blocks;
mod tier2_ping_pong;
mod tier2_plain_values;
mod tier2_prepare;
mod tier2_render_state;
mod tier2_resize;
mod tier2_runtime_arrays;
mod tier2_samplers;
mod tier2_scene;
mod tier2_scene_plot;
mod tier2_set_kinds;
mod tier2_shader_modules;
mod tier2_shapes;
mod tier2_shared_block_shape;
mod tier2_showcases;
mod tier2_texture_data;
mod tier2_texture_kinds;
mod tier2_triangle;
mod tier2_wgsl_std;
mod tier2_window;
