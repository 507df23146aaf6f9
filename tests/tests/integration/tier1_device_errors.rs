//! Tier 1 (noop device) and tier 2: wgpu validation errors become `Err`s carrying wgpu's
//! description, uncaptured errors are routed to the `Gpu`, and the `Gpu` stays usable.

use vgpu::{ErrorCode, Gpu};

fn check_validation_error_then_usable(gpu: &Gpu) {
    let before = gpu.stats();
    let err = gpu
        .context()
        .create_buffer(&wgpu::BufferDescriptor {
            label: Some("bad usage"),
            size: 64,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::MAP_WRITE,
            mapped_at_creation: false,
        })
        .expect_err("MAP_READ | MAP_WRITE is invalid");
    assert_eq!(err.code(), "VGPU-DEVICE-VALIDATION");
    let message = err.to_string();
    assert!(message.contains("bad usage"), "{message}");
    // wgpu's description (not the label) names the offending usages; its terse Display would
    // only say "Validation Error".
    let vgpu_core::DeviceError::Validation { description, .. } = &err else {
        panic!("{err:?}")
    };
    assert!(
        description.contains("MAP_WRITE") && description.contains("MAP_READ"),
        "{description}"
    );
    assert_eq!(
        gpu.stats().buffers_created,
        before.buffers_created,
        "a rejected buffer is not counted"
    );

    // Still usable afterwards.
    let target = gpu.target(4, 4).expect("the Gpu stays usable");
    assert_eq!(target.size(), (4, 4));
    assert!(gpu.take_uncaptured_errors().is_empty());
}

#[test]
fn noop_validation_error_is_an_err_with_wgpu_description() {
    check_validation_error_then_usable(&Gpu::noop());
}

#[test]
fn real_device_validation_error_is_an_err_with_wgpu_description() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    check_validation_error_then_usable(&gpu);
    // And it still renders.
    let draw = vgpu_tests::fullscreen(
        &gpu,
        "after the error",
        "struct Style { color: vec4f }
         @group(0) @binding(0) var<uniform> style: Style;
         @fragment fn fs_main() -> @location(0) vec4f { return style.color; }",
    );
    draw.set("style", vgpu::value! { color: [1.0f32, 0.2, 0.0, 1.0] })
        .expect("set after error");
    let target = gpu.target(16, 16).expect("target after error");
    gpu.frame(|f| f.pass(vgpu::PassDesc::new(&target), |p| p.draw(&draw)))
        .expect("render after error");
    let image = target.read_rgba8().expect("read");
    assert_eq!(image.pixel(8, 8), Some([255, 51, 0, 255]));
}

#[test]
fn uncaptured_errors_are_routed_to_the_gpu_not_panics() {
    let gpu = Gpu::noop();
    let seen = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let s = seen.clone();
    gpu.on_uncaptured_error(move |_| {
        s.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    });
    let buffer = gpu
        .context()
        .create_buffer(&wgpu::BufferDescriptor {
            label: Some("no copy dst"),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM,
            mapped_at_creation: false,
        })
        .expect("valid buffer");
    // Outside any scope: wgpu would panic by default; vgpu routes it.
    gpu.queue().write_buffer(&buffer, 0, &[0; 16]);
    let errors = gpu.take_uncaptured_errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].kind, "validation");
    assert!(
        errors[0].description.contains("COPY_DST"),
        "{}",
        errors[0].description
    );
    assert_eq!(seen.load(std::sync::atomic::Ordering::SeqCst), 1);
    assert_eq!(gpu.stats().uncaptured_errors, 1);
    assert!(
        gpu.take_uncaptured_errors().is_empty(),
        "taking empties the log"
    );
    gpu.target(2, 2).expect("still usable");
}

/// The error callback runs without vgpu's locks: it may replace itself, and the replacement
/// sees the next error (before, replacing it from inside deadlocked).
#[test]
fn the_error_callback_may_replace_itself() {
    let (done, result) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let gpu = Gpu::noop();
        let seen = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let (g, s) = (gpu.clone(), seen.clone());
        gpu.on_uncaptured_error(move |_| {
            let s = s.clone();
            g.on_uncaptured_error(move |_| {
                s.fetch_add(10, std::sync::atomic::Ordering::SeqCst);
            });
        });
        let buffer = gpu
            .context()
            .create_buffer(&wgpu::BufferDescriptor {
                label: Some("no copy dst"),
                size: 16,
                usage: wgpu::BufferUsages::UNIFORM,
                mapped_at_creation: false,
            })
            .expect("valid buffer");
        gpu.queue().write_buffer(&buffer, 0, &[0; 16]);
        gpu.queue().write_buffer(&buffer, 0, &[0; 16]);
        let _ = done.send((
            seen.load(std::sync::atomic::Ordering::SeqCst),
            gpu.take_uncaptured_errors().len(),
        ));
    });
    let (seen, logged) = result
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("replacing the callback from inside it deadlocked");
    assert_eq!(seen, 10, "the replacement saw the second error only");
    assert_eq!(logged, 2);
}

#[test]
fn target_rejects_bad_sizes_and_formats_with_codes() {
    let gpu = Gpu::noop();
    let e = gpu.target(0, 4).expect_err("zero width");
    assert_eq!(e.code(), "VGPU-TARGET-SIZE");
    let e = gpu.target(1 << 20, 4).expect_err("over the limit");
    assert_eq!(e.code(), "VGPU-TARGET-SIZE");
    assert!(e.to_string().contains("1048576"), "{e}");
    let e = gpu
        .target_with(&vgpu::TargetDesc::new(4, 4).format(wgpu::TextureFormat::Depth32Float))
        .expect_err("depth as color");
    assert_eq!(e.code(), "VGPU-TARGET-FORMAT");
    let e = gpu
        .target_with(&vgpu::TargetDesc::new(4, 4).depth(wgpu::TextureFormat::Rgba8Unorm))
        .expect_err("color as depth");
    assert_eq!(e.code(), "VGPU-TARGET-FORMAT");
    let e = gpu
        .target_with(&vgpu::TargetDesc::new(4, 4).format(wgpu::TextureFormat::Rgba16Uint))
        .map(|t| t.read_rgba8())
        .expect("renderable")
        .expect_err("not readable");
    assert_eq!(e.code(), "VGPU-TARGET-FORMAT");
}

/// Fuzz finding (`api` target, fuzz/regressions/api/texture-write-depth32float): writing a
/// texture whose format `Queue::write_texture` refuses (Depth32Float) returned `Ok` and left an
/// uncaptured wgpu validation error. It is an `Err` (refused before wgpu sees it since the
/// texture formats' copy rules are vgpu's: `VGPU-TEXTURE-FORMAT`), nothing uncaptured, and the
/// `Gpu` stays usable.
#[test]
fn texture_write_wgpu_refuses_is_an_err_not_an_uncaptured_error() {
    vgpu_tests::each_gpu(|gpu| {
        let desc = vgpu::TextureDesc {
            label: "depth data".into(),
            width: 4,
            height: 4,
            format: wgpu::TextureFormat::Depth32Float,
            ..Default::default()
        };
        let e = gpu
            .texture_with_data(&desc, &[0; 64])
            .expect_err("Depth32Float cannot be a write_texture destination");
        assert_eq!(e.code(), "VGPU-TEXTURE-FORMAT", "{e}");
        assert!(e.to_string().contains("Depth32Float"), "{e}");
        let texture = gpu.texture(&desc).expect("the texture itself is valid");
        let e = texture.write(gpu, &[0; 64]).expect_err("written");
        assert_eq!(e.code(), "VGPU-TEXTURE-FORMAT", "{e}");
        assert!(gpu.take_uncaptured_errors().is_empty());
        let fine = vgpu::TextureDesc {
            format: wgpu::TextureFormat::Rgba8Unorm,
            ..desc
        };
        gpu.texture_with_data(&fine, &[7; 64])
            .expect("an Rgba8Unorm texture still writes");
    });
}
