//! The WGSL spelling of a naga type, for layouts and messages.

use std::fmt::Write as _;

/// The WGSL spelling of a naga type (bounded depth; deeper parts print as `…`).
pub(crate) fn type_name(module: &naga::Module, ty: naga::Handle<naga::Type>) -> String {
    let mut s = String::new();
    write_type_name(&mut s, module, ty, 0);
    s
}

/// Appends the WGSL spelling of `ty` to `s`.
fn write_type_name(
    s: &mut String,
    module: &naga::Module,
    ty: naga::Handle<naga::Type>,
    depth: usize,
) {
    let Ok(t) = module.types.get_handle(ty) else {
        s.push('?');
        return;
    };
    if let Some(name) = &t.name {
        s.push_str(name);
        return;
    }
    if depth > 8 {
        s.push('…');
        return;
    }
    use naga::TypeInner as Ti;
    match &t.inner {
        Ti::Scalar(sc) => s.push_str(&scalar_name(*sc)),
        Ti::Atomic(sc) => {
            let _ = write!(s, "atomic<{}>", scalar_name(*sc));
        }
        Ti::Vector { size, scalar } => {
            let _ = write!(s, "vec{}<{}>", *size as u8, scalar_name(*scalar));
        }
        Ti::Matrix {
            columns,
            rows,
            scalar,
        } => {
            let _ = write!(
                s,
                "mat{}x{}<{}>",
                *columns as u8,
                *rows as u8,
                scalar_name(*scalar)
            );
        }
        Ti::Array { base, size, .. } => {
            s.push_str("array<");
            write_type_name(s, module, *base, depth + 1);
            match size {
                naga::ArraySize::Constant(n) => {
                    let _ = write!(s, ", {n}>");
                }
                naga::ArraySize::Pending(_) => s.push_str(", (override)>"),
                naga::ArraySize::Dynamic => s.push('>'),
            }
        }
        Ti::BindingArray { base, size } => {
            s.push_str("binding_array<");
            write_type_name(s, module, *base, depth + 1);
            match size {
                naga::ArraySize::Constant(n) => {
                    let _ = write!(s, ", {n}>");
                }
                _ => s.push('>'),
            }
        }
        Ti::Struct { .. } => s.push_str("struct"),
        Ti::Image {
            dim,
            arrayed,
            class,
        } => write_image_name(s, *dim, *arrayed, class),
        Ti::Sampler { comparison } => s.push_str(if *comparison {
            "sampler_comparison"
        } else {
            "sampler"
        }),
        Ti::Pointer { .. } | Ti::ValuePointer { .. } => s.push_str("ptr"),
        Ti::AccelerationStructure { .. } => s.push_str("acceleration_structure"),
        Ti::RayQuery { .. } => s.push_str("ray_query"),
        _ => s.push_str("(unsupported type)"),
    }
}

/// The WGSL spelling of a texture type: `texture_2d<f32>`, `texture_depth_cube`,
/// `texture_storage_2d<rgba8unorm, write>`, ….
fn write_image_name(
    s: &mut String,
    dim: naga::ImageDimension,
    arrayed: bool,
    class: &naga::ImageClass,
) {
    let dim = match dim {
        naga::ImageDimension::D1 => "1d",
        naga::ImageDimension::D2 => "2d",
        naga::ImageDimension::D3 => "3d",
        naga::ImageDimension::Cube => "cube",
    };
    let arr = if arrayed { "_array" } else { "" };
    let _ = match class {
        naga::ImageClass::Sampled { kind, multi } => {
            let ms = if *multi { "multisampled_" } else { "" };
            let k = scalar_name(naga::Scalar {
                kind: *kind,
                width: 4,
            });
            write!(s, "texture_{ms}{dim}{arr}<{k}>")
        }
        naga::ImageClass::Depth { multi } => {
            let ms = if *multi { "multisampled_" } else { "" };
            write!(s, "texture_depth_{ms}{dim}{arr}")
        }
        naga::ImageClass::Storage { format, access } => {
            let a = if access.contains(naga::StorageAccess::LOAD | naga::StorageAccess::STORE) {
                "read_write"
            } else if access.contains(naga::StorageAccess::STORE) {
                "write"
            } else {
                "read"
            };
            let f = format!("{format:?}").to_ascii_lowercase();
            write!(s, "texture_storage_{dim}{arr}<{f}, {a}>")
        }
        naga::ImageClass::External => write!(s, "texture_external"),
    };
}

/// The WGSL spelling of a naga scalar (`f32`, `u32`, …).
fn scalar_name(s: naga::Scalar) -> String {
    use naga::ScalarKind as K;
    match s.kind {
        K::Bool => "bool".to_owned(),
        K::Float => format!("f{}", u32::from(s.width) * 8),
        K::Sint => format!("i{}", u32::from(s.width) * 8),
        K::Uint => format!("u{}", u32::from(s.width) * 8),
        K::AbstractInt => "abstract-int".to_owned(),
        K::AbstractFloat => "abstract-float".to_owned(),
    }
}
