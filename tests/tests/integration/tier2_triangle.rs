//! Tier 2 (real device): the triangle example's pixels, through the PNG its binary writes; read
//! backs of targets (blocking and async, several formats); vertex counts of draws.

// The triangle example's constants (examples/triangle.rs), duplicated: its 64×64 image, its
// clear color and its triangle color in 8-bit RGBA.
const SIZE: u32 = 64;
const CLEAR: [u8; 4] = [51, 102, 153, 255];
const TRI: [u8; 4] = [255, 51, 0, 255];

/// Pixels strictly inside and strictly outside the triangle (-0.5,-0.5), (0.5,-0.5), (0,0.5) in
/// clip space, which covers rows 16..48 and, at row 32, columns 24..40 of a 64×64 target.
const INSIDE: [(u32, u32); 4] = [(32, 32), (32, 20), (20, 44), (44, 44)];
const OUTSIDE: [(u32, u32); 6] = [(0, 0), (63, 63), (32, 10), (32, 52), (10, 32), (53, 32)];

/// Runs the `triangle` binary (needs `cargo build --examples` first when only this crate's tests
/// are built): on a real device its `triangle.png` holds exactly the triangle and the clear
/// color; on the noop device it writes no PNG and says so. It exits non-zero on any uncaptured
/// wgpu error.
#[test]
fn triangle_example_png_pixels_inside_and_outside_are_exact() {
    let run = vgpu_tests::run_example("triangle", &[]);
    let path = run.path("triangle.png");
    if run.noop() {
        assert!(
            run.stdout.contains("triangle.png was not written"),
            "{}",
            run.stdout
        );
        assert!(!path.exists(), "no blank PNG on the noop device");
        return;
    }
    let adapter = run.line("adapter: ");
    let (w, h, pixels) = run.png("triangle.png");
    assert_eq!((w, h), (SIZE, SIZE));
    let at = |x: u32, y: u32| &pixels[((y * w + x) * 4) as usize..][..4];
    for (x, y) in INSIDE {
        assert_eq!(at(x, y), TRI, "inside at ({x},{y}) on {adapter}");
    }
    for (x, y) in OUTSIDE {
        assert_eq!(at(x, y), CLEAR, "outside at ({x},{y}) on {adapter}");
    }
    let covered = pixels.chunks_exact(4).filter(|p| *p == TRI).count();
    // Area of the triangle: 32 px wide at the base, 32 px tall → 512 px, give or take edge rules.
    assert!((480..=544).contains(&covered), "covered pixels {covered}");
    assert_eq!(
        pixels
            .chunks_exact(4)
            .filter(|p| *p != TRI && *p != CLEAR)
            .count(),
        0,
        "no other colors without MSAA"
    );
}

/// The async read-back (what the web uses) reads the same pixels as the blocking one, and a PNG
/// written from a target holds them.
#[test]
fn async_read_back_and_png_hold_the_rendered_pixels() {
    let Some(gpu) = vgpu_tests::real_gpu() else {
        return;
    };
    // A gradient, so that a row or channel out of place would show.
    let draw = vgpu_tests::fullscreen(
        &gpu,
        "gradient",
        "@fragment fn fs_main(@builtin(position) p: vec4f) -> @location(0) vec4f {
             return vec4f(floor(p.x) / 16.0, floor(p.y) / 16.0, 0.6, 1.0);
         }",
    );
    let target = gpu.target(16, 12).expect("target");
    gpu.frame(|f| f.pass(vgpu::PassDesc::new(&target), |p| p.draw(&draw)))
        .expect("frame");
    let image = target.read_rgba8().expect("read back");
    assert_eq!((image.width, image.height), (16, 12));
    assert_ne!(image.pixel(0, 0), image.pixel(15, 11), "a gradient");
    let again = pollster::block_on(target.read_rgba8_async()).expect("async read back");
    assert_eq!(again.data, image.data);
    let path = vgpu_tests::temp_path("gradient.png");
    target.save_png(&path).expect("png");
    let (w, h, pixels) = vgpu_tests::load_png(&path);
    assert_eq!((w, h), (16, 12));
    assert_eq!(pixels, image.data);
    assert!(gpu.take_uncaptured_errors().is_empty());
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
                view: &target.color_view().expect("color target"),
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

/// A vertex buffer of `vertices` (x, y) pairs, `Float32x2` at `@location(0)`.
fn positions(
    gpu: &vgpu::Gpu,
    vertices: &[f32],
    step_mode: wgpu::VertexStepMode,
) -> vgpu::VertexBuffer {
    vgpu::VertexBuffer {
        buffer: gpu
            .buffer_init(
                "positions",
                &vgpu_tests::f32_bytes(vertices),
                wgpu::BufferUsages::VERTEX,
            )
            .unwrap(),
        offset: 0,
        stride: 8,
        step_mode,
        attributes: vec![wgpu::VertexAttribute {
            format: wgpu::VertexFormat::Float32x2,
            offset: 0,
            shader_location: 0,
        }],
    }
}

/// A draw given vertex buffers and no `vertex_count` draws every vertex they hold (the fewest
/// of its per-vertex buffers), not three: two triangles covering the left and the right half
/// of a target both reach it.
#[test]
fn a_draw_without_a_count_draws_every_vertex_of_its_buffers() {
    vgpu_tests::each_gpu(|gpu| {
        let shader = gpu
            .shader(
                "halves",
                "@vertex fn vs_main(@location(0) p: vec2f) -> @builtin(position) vec4f {
                     return vec4f(p, 0.0, 1.0);
                 }
                 @fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }",
            )
            .unwrap();
        // Left half: x in [-1, 0]; right half: x in [0, 1]; each a triangle over its half's
        // diagonal plus the corner, so together they cover the pixel centers tested below.
        let left_and_right = [
            -1.0, -1.0, 0.0, -1.0, -1.0, 1.0, // left
            0.0, -1.0, 1.0, -1.0, 0.0, 1.0, // right
        ];
        let desc = |vertex_buffers, vertex_count| vgpu::DrawDesc {
            label: "halves".into(),
            vertex_buffers,
            vertex_count,
            ..Default::default()
        };
        let vertex = wgpu::VertexStepMode::Vertex;
        let draw = gpu
            .draw(
                &shader,
                desc(vec![positions(gpu, &left_and_right, vertex)], None),
            )
            .unwrap();
        assert_eq!(draw.counts(), (6, 1), "six vertices in the buffer");
        let given = gpu
            .draw(
                &shader,
                desc(vec![positions(gpu, &left_and_right, vertex)], Some(3)),
            )
            .unwrap();
        assert_eq!(given.counts(), (3, 1), "a count given is kept");
        // The fewest of the per-vertex buffers (4 whole vertices past a 4-byte offset of a
        // 36-byte buffer); a per-instance buffer does not count.
        let mut short = positions(gpu, &[0.0; 9], vertex);
        short.offset = 4;
        short.attributes[0].shader_location = 1;
        let mut per_instance = positions(gpu, &[0.0; 2], wgpu::VertexStepMode::Instance);
        per_instance.attributes[0].shader_location = 2;
        let mixed = gpu
            .draw(
                &shader,
                desc(
                    vec![positions(gpu, &left_and_right, vertex), short, per_instance],
                    None,
                ),
            )
            .unwrap();
        assert_eq!(mixed.counts(), (4, 1));
        let bare = gpu
            .draw(&shader, desc(Vec::new(), None))
            .expect_err("no vertex buffer for `@location(0)`");
        // No vertex buffer for `@location(0)`: refused; a shader without inputs draws 3.
        assert_eq!(
            vgpu::ErrorCode::code(&bare),
            "VGPU-DRAW-VERTEX-LAYOUT",
            "{bare}"
        );
        let fullscreen = vgpu_tests::fullscreen(
            gpu,
            "fullscreen",
            "@fragment fn fs_main() -> @location(0) vec4f { return vec4f(1.0); }",
        );
        assert_eq!(fullscreen.counts(), (3, 1));

        let target = gpu.target(4, 2).unwrap();
        gpu.frame(|f| {
            f.pass(
                vgpu::PassDesc::new(&target).clear([0.0, 0.0, 0.0, 1.0]),
                |p| p.draw(&draw),
            )
        })
        .unwrap();
        if gpu.is_noop() {
            return;
        }
        let image = target.read_rgba8().unwrap();
        // Pixel centers (0.5, 1.5) and (2.5, 1.5): bottom row, inside each half's triangle.
        assert_eq!(image.pixel(0, 1), Some([255; 4]), "left half drawn");
        assert_eq!(image.pixel(2, 1), Some([255; 4]), "right half drawn");
    });
}
