//! Tier 2 (real device): the triangle example's pixels, read back and through its PNG.

use vgpu_examples::triangle;

const SIZE: u32 = 64;
const CLEAR: [u8; 4] = [51, 102, 153, 255];
const TRI: [u8; 4] = [255, 51, 0, 255];

/// Pixels strictly inside and strictly outside the triangle (-0.5,-0.5), (0.5,-0.5), (0,0.5) in
/// clip space, which covers rows 16..48 and, at row 32, columns 24..40 of a 64×64 target.
const INSIDE: [(u32, u32); 4] = [(32, 32), (32, 20), (20, 44), (44, 44)];
const OUTSIDE: [(u32, u32); 6] = [(0, 0), (63, 63), (32, 10), (32, 52), (10, 32), (53, 32)];

#[test]
fn triangle_pixels_inside_and_outside_are_exact() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let target = triangle::render(&gpu, SIZE).expect("render");
    let image = target.read_rgba8().expect("read back");
    assert_eq!((image.width, image.height), (SIZE, SIZE));
    // The async form (what the web uses) reads the same pixels.
    let again = pollster::block_on(target.read_rgba8_async()).expect("async read back");
    assert_eq!(again.data, image.data);
    for (x, y) in INSIDE {
        assert_eq!(
            image.pixel(x, y),
            Some(TRI),
            "inside at ({x},{y}) on {:?}",
            gpu.adapter_info().backend
        );
    }
    for (x, y) in OUTSIDE {
        assert_eq!(
            image.pixel(x, y),
            Some(CLEAR),
            "outside at ({x},{y}) on {:?}",
            gpu.adapter_info().backend
        );
    }
    let covered = image.data.chunks_exact(4).filter(|p| *p == TRI).count();
    // Area of the triangle: 32 px wide at the base, 32 px tall → 512 px, give or take edge rules.
    assert!((480..=544).contains(&covered), "covered pixels {covered}");
    assert_eq!(
        image
            .data
            .chunks_exact(4)
            .filter(|p| *p != TRI && *p != CLEAR)
            .count(),
        0,
        "no other colors without MSAA"
    );
    assert!(gpu.take_uncaptured_errors().is_empty());
}

#[test]
fn triangle_png_holds_the_rendered_pixels() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    let path = vgpu_tests::temp_path("triangle.png");
    triangle::render(&gpu, SIZE)
        .expect("render")
        .save_png(&path)
        .expect("png");
    let (w, h, pixels) = vgpu_tests::load_png(&path);
    assert_eq!((w, h), (SIZE, SIZE));
    let at = |x: u32, y: u32| &pixels[((y * w + x) * 4) as usize..][..4];
    for (x, y) in INSIDE {
        assert_eq!(at(x, y), TRI);
    }
    for (x, y) in OUTSIDE {
        assert_eq!(at(x, y), CLEAR);
    }
}

#[test]
fn target_formats_read_back_as_rgba8_and_floats() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    for format in [
        wgpu::TextureFormat::Bgra8Unorm,
        wgpu::TextureFormat::Rgba16Float,
        wgpu::TextureFormat::Rgba32Float,
    ] {
        if !gpu
            .context()
            .format_features(format)
            .allowed_usages
            .contains(wgpu::TextureUsages::RENDER_ATTACHMENT)
        {
            eprintln!("{format:?} is not renderable on this adapter");
            let e = gpu
                .target_with(&vgpu::TargetDesc::new(5, 3).format(format))
                .expect_err("rejected up front");
            assert_eq!(vgpu::ErrorCode::code(&e), "VGPU-TARGET-FORMAT");
            continue;
        }
        let target = gpu
            .target_with(&vgpu::TargetDesc::new(5, 3).format(format))
            .expect("target");
        let mut encoder = gpu.device().create_command_encoder(&Default::default());
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: None,
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target.color_view().expect("color target"),
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color {
                        r: 1.0,
                        g: 0.2,
                        b: 0.0,
                        a: 1.0,
                    }),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        gpu.context().submit([encoder.finish()]);
        let image = target.read_rgba8().expect("rgba8");
        assert_eq!(
            image.data.len(),
            5 * 3 * 4,
            "{format:?}: row padding removed"
        );
        assert!(
            image.data.chunks_exact(4).all(|p| p == TRI),
            "{format:?}: {:?}",
            image.pixel(0, 0)
        );
        let floats = target.read_f32().expect("f32");
        assert_eq!(floats.len(), 15);
        assert!(
            (floats[14][1] - 0.2).abs() < 0.004,
            "{format:?}: {:?}",
            floats[14]
        );
    }
}
