//! Pipeline-overridable constants: the shader's `override`s, and the check of the values a draw
//! or compute gives them (`constants`) before wgpu sees them.

use super::Shader;
use crate::reflect::{OverrideInfo, const_value};
use crate::set_error::did_you_mean;
use crate::shader_error::ShaderError;

/// Deepest override expression [`Shader::workgroup_size_with`] evaluates.
const MAX_EVAL_DEPTH: u32 = 16;

impl Shader {
    /// Every `override` of the shader, in declaration order.
    pub fn overrides(&self) -> &[OverrideInfo] {
        &self.overrides
    }

    /// Checks the values a draw or compute labelled `label` gives this shader's overrides.
    ///
    /// A key is an override's name or its `@id` as decimal text. Errors, each naming `label`:
    /// `VGPU-CONSTANT-UNKNOWN` (no such override; suggests a near name and lists them),
    /// `VGPU-CONSTANT-DUPLICATE` (one override given twice, by one key or by its name and its
    /// id), `VGPU-CONSTANT-TYPE` (a value its type cannot hold: a fraction or out of range for
    /// `i32`/`u32`, not 0 or 1 for `bool`, not finite or out of range for `f32`/`f16`) and
    /// `VGPU-CONSTANT-MISSING` (an override of the module without initializer and without
    /// value).
    ///
    /// ```
    /// use vgpu_core::{ErrorCode, Shader};
    ///
    /// let shader = Shader::new(
    ///     "s.wgsl",
    ///     "@id(3) override count: u32 = 4u;
    ///      @compute @workgroup_size(1) fn cs_main() { _ = count; }",
    /// )?;
    /// shader.check_constants("k", &[("count".into(), 8.0)])?;
    /// shader.check_constants("k", &[("3".into(), 8.0)])?;
    /// let e = shader.check_constants("k", &[("count".into(), 0.5)]).unwrap_err();
    /// assert_eq!(e.code(), "VGPU-CONSTANT-TYPE");
    /// let e = shader.check_constants("k", &[("cuont".into(), 1.0)]).unwrap_err();
    /// assert_eq!(e.code(), "VGPU-CONSTANT-UNKNOWN");
    /// # Ok::<(), vgpu_core::ShaderError>(())
    /// ```
    pub fn check_constants(
        &self,
        label: &str,
        constants: &[(String, f64)],
    ) -> Result<(), ShaderError> {
        self.pipeline_constants(label, constants).map(drop)
    }

    /// Checks `constants` as [`check_constants`](Self::check_constants) does and returns them as
    /// wgpu's `PipelineCompilationOptions::constants` expects: one entry per override given,
    /// keyed by [`OverrideInfo::pipeline_key`] (the `@id` as text when there is one: naga looks
    /// an override with an id up by the id only), in declaration order — equal sets of values
    /// give equal vectors, whatever the order or keys they were given with.
    pub fn pipeline_constants(
        &self,
        label: &str,
        constants: &[(String, f64)],
    ) -> Result<Vec<(String, f64)>, ShaderError> {
        let used = self.overrides_used_by(|_| true);
        self.resolve_constants(label, &used, constants)
    }

    /// [`pipeline_constants`](Self::pipeline_constants) for a pipeline of the named entry points
    /// only: `VGPU-CONSTANT-MISSING` is returned for a required override that one of them uses
    /// (directly, through a function it calls, an override's initializer or an
    /// override-sized array), not for one only other entry points use — WebGPU's rule, so a
    /// module of several kernels each with its own required override works.
    pub fn pipeline_constants_for(
        &self,
        label: &str,
        entry_points: &[&str],
        constants: &[(String, f64)],
    ) -> Result<Vec<(String, f64)>, ShaderError> {
        let used = self.overrides_used_by(|name| entry_points.contains(&name));
        self.resolve_constants(label, &used, constants)
    }

    /// The check and normalization of `constants`; `used[i]`: override `i` must have a value
    /// when it is required.
    fn resolve_constants(
        &self,
        label: &str,
        used: &[bool],
        constants: &[(String, f64)],
    ) -> Result<Vec<(String, f64)>, ShaderError> {
        let mut given: Vec<Option<(&str, f64)>> = vec![None; self.overrides.len()];
        for (key, value) in constants {
            let Some(i) = self.override_index(key) else {
                return Err(self.unknown_constant(label, key));
            };
            let o = &self.overrides[i];
            if let Some((first, _)) = given[i] {
                return Err(ShaderError::ConstantDuplicate {
                    label: label.to_owned(),
                    shader: self.label.to_string(),
                    name: o.name.clone(),
                    first: first.into(),
                    second: key.as_str().into(),
                });
            }
            if !o.ty.holds(*value) {
                return Err(ShaderError::ConstantType {
                    label: label.to_owned(),
                    shader: self.label.to_string(),
                    name: o.name.clone(),
                    ty: o.ty,
                    value: value.to_string(),
                });
            }
            given[i] = Some((key, *value));
        }
        if let Some(o) = self
            .overrides
            .iter()
            .zip(&given)
            .zip(used)
            .find_map(|((o, g), u)| (*u && o.required && g.is_none()).then_some(o))
        {
            return Err(ShaderError::ConstantMissing {
                label: label.to_owned(),
                shader: self.label.to_string(),
                name: o.name.clone(),
                key: o.pipeline_key(),
            });
        }
        Ok(self
            .overrides
            .iter()
            .zip(&given)
            .filter_map(|(o, g)| g.map(|(_, v)| (o.pipeline_key(), v)))
            .collect())
    }

    /// The workgroup size of compute entry point `entry_point` with `constants` (checked or
    /// not; a key that names no override is ignored): the declared size where it is literal,
    /// and where an override decides it (`@workgroup_size(n)` with `override n: u32 = 64;`) the
    /// override's value as given, or else its default. `None` when there is no such compute
    /// entry point or a dimension cannot be evaluated (an override without a value, or an
    /// expression other than arithmetic on literals, constants and overrides).
    pub fn workgroup_size_with(
        &self,
        entry_point: &str,
        constants: &[(String, f64)],
    ) -> Option<[u32; 3]> {
        let ep = self
            .module
            .entry_points
            .iter()
            .find(|e| e.stage == naga::ShaderStage::Compute && e.name == entry_point)?;
        let Some(exprs) = ep.workgroup_size_overrides else {
            return Some(ep.workgroup_size);
        };
        let mut values: Vec<Option<f64>> = vec![None; self.overrides.len()];
        for (key, value) in constants {
            if let Some(i) = self.override_index(key) {
                values[i] = Some(*value);
            }
        }
        let mut size = ep.workgroup_size;
        for (dim, expr) in size.iter_mut().zip(exprs) {
            if let Some(e) = expr {
                let v = self.eval_override_expr(e, &values, 0)?;
                if v.fract() != 0.0 || !(1.0..=f64::from(u32::MAX)).contains(&v) {
                    return None;
                }
                *dim = v as u32;
            }
        }
        Some(size)
    }

    /// The index of the override `key` names: its name, or its `@id` as decimal text.
    fn override_index(&self, key: &str) -> Option<usize> {
        if let Some(i) = self.overrides.iter().position(|o| o.name == key) {
            return Some(i);
        }
        if key.is_empty() || !key.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let id: u16 = key.parse().ok()?;
        self.overrides.iter().position(|o| o.id == Some(id))
    }

    /// Which overrides (by index) the entry points whose names pass `wanted` use.
    fn overrides_used_by(&self, wanted: impl Fn(&str) -> bool) -> Vec<bool> {
        let m = &self.module;
        let mut used = vec![false; self.overrides.len()];
        let mut globals = Vec::new();
        // Override-sized arrays: counted as used by every entry point (naga cannot size them
        // otherwise).
        for (_, ty) in m.types.iter() {
            if let naga::TypeInner::Array {
                size: naga::ArraySize::Pending(h),
                ..
            } = ty.inner
            {
                mark(m, &mut used, &mut globals, h);
            }
        }
        let mut seen = vec![false; m.functions.len()];
        let mut functions: Vec<&naga::Function> = Vec::new();
        for ep in m.entry_points.iter().filter(|e| wanted(&e.name)) {
            functions.push(&ep.function);
            for e in ep.workgroup_size_overrides.iter().flatten().flatten() {
                globals.push(*e);
            }
        }
        while let Some(f) = functions.pop() {
            for (_, e) in f.expressions.iter() {
                match *e {
                    naga::Expression::Override(h) => mark(m, &mut used, &mut globals, h),
                    naga::Expression::CallResult(c) if !seen[c.index()] => {
                        seen[c.index()] = true;
                        functions.push(&m.functions[c]);
                    }
                    _ => {}
                }
            }
            let mut calls = Vec::new();
            calls_in(&f.body, &mut calls, 0);
            for c in calls {
                if !seen[c.index()] {
                    seen[c.index()] = true;
                    functions.push(&m.functions[c]);
                }
            }
        }
        while let Some(e) = globals.pop() {
            match m.global_expressions[e] {
                naga::Expression::Override(h) => mark(m, &mut used, &mut globals, h),
                naga::Expression::Binary { left, right, .. } => globals.extend([left, right]),
                naga::Expression::Unary { expr, .. } | naga::Expression::As { expr, .. } => {
                    globals.push(expr);
                }
                naga::Expression::Splat { value, .. } => globals.push(value),
                naga::Expression::Select {
                    condition,
                    accept,
                    reject,
                } => globals.extend([condition, accept, reject]),
                naga::Expression::Compose { ref components, .. } => {
                    globals.extend(components.iter().copied());
                }
                naga::Expression::Math {
                    arg,
                    arg1,
                    arg2,
                    arg3,
                    ..
                } => globals.extend([Some(arg), arg1, arg2, arg3].into_iter().flatten()),
                _ => {}
            }
        }
        used
    }

    /// `VGPU-CONSTANT-UNKNOWN` for `key`.
    fn unknown_constant(&self, label: &str, key: &str) -> ShaderError {
        ShaderError::ConstantUnknown {
            label: label.to_owned(),
            shader: self.label.to_string(),
            key: key.to_owned(),
            hint: did_you_mean(key, self.overrides.iter().map(|o| o.name.as_str())),
            available: self.overrides.iter().map(ToString::to_string).collect(),
        }
    }

    /// The value of global expression `expr` with the overrides' `values` (by index; `None`:
    /// the override's initializer).
    fn eval_override_expr(
        &self,
        expr: naga::Handle<naga::Expression>,
        values: &[Option<f64>],
        depth: u32,
    ) -> Option<f64> {
        if depth > MAX_EVAL_DEPTH {
            return None;
        }
        let m = &self.module;
        match m.global_expressions[expr] {
            naga::Expression::Override(h) => match values.get(h.index()).copied().flatten() {
                Some(v) => Some(v),
                None => self.eval_override_expr(m.overrides[h].init?, values, depth + 1),
            },
            naga::Expression::Binary { op, left, right } => {
                let l = self.eval_override_expr(left, values, depth + 1)?;
                let r = self.eval_override_expr(right, values, depth + 1)?;
                match op {
                    naga::BinaryOperator::Add => Some(l + r),
                    naga::BinaryOperator::Subtract => Some(l - r),
                    naga::BinaryOperator::Multiply => Some(l * r),
                    naga::BinaryOperator::Divide if r != 0.0 => Some((l / r).trunc()),
                    _ => None,
                }
            }
            naga::Expression::As { expr, .. } => self.eval_override_expr(expr, values, depth + 1),
            _ => const_value(m, expr, 0),
        }
    }
}

/// Marks override `h` used, and queues its initializer (it may name other overrides).
fn mark(
    m: &naga::Module,
    used: &mut [bool],
    globals: &mut Vec<naga::Handle<naga::Expression>>,
    h: naga::Handle<naga::Override>,
) {
    if let Some(u) = used.get_mut(h.index())
        && !*u
    {
        *u = true;
        globals.extend(m.overrides[h].init);
    }
}

/// Deepest block nesting [`calls_in`] walks (deeper blocks are naga's to refuse).
const MAX_BLOCK_DEPTH: u32 = 256;

/// The functions `block` calls (`Statement::Call`), nested blocks included.
fn calls_in(block: &naga::Block, out: &mut Vec<naga::Handle<naga::Function>>, depth: u32) {
    if depth > MAX_BLOCK_DEPTH {
        return;
    }
    for s in block.iter() {
        match s {
            naga::Statement::Call { function, .. } => out.push(*function),
            naga::Statement::Block(b) => calls_in(b, out, depth + 1),
            naga::Statement::If { accept, reject, .. } => {
                calls_in(accept, out, depth + 1);
                calls_in(reject, out, depth + 1);
            }
            naga::Statement::Switch { cases, .. } => {
                for c in cases {
                    calls_in(&c.body, out, depth + 1);
                }
            }
            naga::Statement::Loop {
                body, continuing, ..
            } => {
                calls_in(body, out, depth + 1);
                calls_in(continuing, out, depth + 1);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "an unwrap in a test is an assertion")]

    use super::*;
    use crate::error::ErrorCode;
    use crate::reflect::OverrideType;

    const SRC: &str = "
        override scale: f32 = 1.5;
        @id(7) override count: u32;
        override flag: bool = true;
        override offset: i32 = -3;
        override derived: f32 = scale * 2.0;
        override wg: u32 = 32u;
        @compute @workgroup_size(wg, 2) fn cs_main() {
            _ = scale * f32(count) * f32(offset) * derived;
            _ = flag;
        }";

    fn shader() -> Shader {
        Shader::new("o.wgsl", SRC).unwrap()
    }

    fn given(pairs: &[(&str, f64)]) -> Vec<(String, f64)> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect()
    }

    #[test]
    fn overrides_are_reflected_with_types_ids_and_defaults() {
        let s = shader();
        let o = s.overrides();
        let names: Vec<&str> = o.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["scale", "count", "flag", "offset", "derived", "wg"]);
        assert_eq!(
            (o[0].ty, o[0].default, o[0].required),
            (OverrideType::F32, Some(1.5), false)
        );
        assert_eq!(
            (o[1].ty, o[1].id, o[1].default, o[1].required),
            (OverrideType::U32, Some(7), None, true)
        );
        assert_eq!((o[2].ty, o[2].default), (OverrideType::Bool, Some(1.0)));
        assert_eq!((o[3].ty, o[3].default), (OverrideType::I32, Some(-3.0)));
        assert_eq!((o[4].default, o[4].required), (None, false));
        assert_eq!(o[1].pipeline_key(), "7");
        assert_eq!(o[0].pipeline_key(), "scale");
    }

    #[test]
    fn keys_are_names_or_ids_and_come_out_as_wgpu_keys_in_declaration_order() {
        let s = shader();
        let by_name = s
            .pipeline_constants("k", &given(&[("wg", 64.0), ("count", 3.0), ("scale", 2.0)]))
            .unwrap();
        let by_id = s
            .pipeline_constants("k", &given(&[("scale", 2.0), ("7", 3.0), ("wg", 64.0)]))
            .unwrap();
        assert_eq!(by_name, by_id);
        assert_eq!(by_name, given(&[("scale", 2.0), ("7", 3.0), ("wg", 64.0)]));
    }

    #[test]
    fn an_unknown_key_is_named_with_a_suggestion_and_the_list() {
        let e = shader()
            .check_constants("my compute", &given(&[("scael", 1.0)]))
            .unwrap_err();
        assert_eq!(e.code(), "VGPU-CONSTANT-UNKNOWN");
        let msg = e.to_string();
        assert!(msg.contains("\"my compute\""), "{msg}");
        assert!(msg.contains("did you mean `scale`?"), "{msg}");
        assert!(msg.contains("@id(7) count: u32 (required)"), "{msg}");
        // An id no override has, and a name that is not decimal text, are unknown too.
        for key in ["8", "+7", ""] {
            let e = shader()
                .check_constants("k", &given(&[(key, 1.0)]))
                .unwrap_err();
            assert_eq!(e.code(), "VGPU-CONSTANT-UNKNOWN", "{key:?}");
        }
    }

    #[test]
    fn values_out_of_the_type_are_refused_naming_override_type_and_value() {
        let cases: &[(&str, f64)] = &[
            ("count", -1.0),
            ("count", 0.5),
            ("count", 4294967296.0),
            ("offset", 2147483648.0),
            ("offset", 1.25),
            ("flag", 2.0),
            ("scale", f64::NAN),
            ("scale", f64::INFINITY),
            ("scale", 1e39),
        ];
        for &(key, value) in cases {
            let mut c = given(&[(key, value)]);
            if key != "count" {
                c.push(("count".into(), 1.0));
            }
            let e = shader().check_constants("k", &c).unwrap_err();
            assert_eq!(e.code(), "VGPU-CONSTANT-TYPE", "{key} = {value}");
            let msg = e.to_string();
            assert!(
                msg.contains(&format!("`{key}`")) && msg.contains(&value.to_string()),
                "{msg}"
            );
        }
        let ok = given(&[
            ("count", 4294967295.0),
            ("offset", -2147483648.0),
            ("flag", 0.0),
            ("scale", -3.4e38),
        ]);
        shader().check_constants("k", &ok).unwrap();
    }

    #[test]
    fn a_required_override_without_value_is_missing() {
        let e = shader()
            .check_constants("draw x", &given(&[("scale", 1.0)]))
            .unwrap_err();
        assert_eq!(e.code(), "VGPU-CONSTANT-MISSING");
        let msg = e.to_string();
        assert!(
            msg.contains("`count`") && msg.contains("\"draw x\"") && msg.contains("\"7\""),
            "{msg}"
        );
    }

    #[test]
    fn only_overrides_the_entry_points_use_must_be_given() {
        let s = Shader::new(
            "two.wgsl",
            "override a: u32;
             override b: u32;
             override c: u32;
             override d = c * 2u;
             fn helper() { _ = b; }
             @compute @workgroup_size(1) fn first() { _ = a; }
             @compute @workgroup_size(1) fn second() { helper(); }
             @compute @workgroup_size(1) fn third() { _ = d; }",
        )
        .unwrap();
        let missing = |eps: &[&str], pairs: &[(&str, f64)]| {
            s.pipeline_constants_for("k", eps, &given(pairs))
                .err()
                .map(|e| e.to_string())
        };
        assert_eq!(missing(&["first"], &[("a", 1.0)]), None);
        assert!(missing(&["first"], &[]).unwrap().contains("`a`"));
        assert_eq!(missing(&["second"], &[("b", 1.0)]), None);
        assert!(missing(&["second"], &[("a", 1.0)]).unwrap().contains("`b`"));
        assert_eq!(missing(&["third"], &[("c", 1.0)]), None);
        assert!(missing(&["third"], &[]).unwrap().contains("`c`"));
        // Module-wide, every used one is needed.
        let e = s
            .check_constants("k", &given(&[("a", 1.0), ("b", 1.0)]))
            .unwrap_err();
        assert_eq!(e.code(), "VGPU-CONSTANT-MISSING");
    }

    #[test]
    fn one_override_given_twice_is_a_duplicate() {
        for pairs in [
            [("count", 1.0), ("count", 2.0)],
            [("count", 1.0), ("7", 1.0)],
        ] {
            let e = shader().check_constants("k", &given(&pairs)).unwrap_err();
            assert_eq!(e.code(), "VGPU-CONSTANT-DUPLICATE");
            assert!(e.to_string().contains("`count`"), "{e}");
        }
    }

    #[test]
    fn f16_overrides_have_the_f16_range() {
        let s = Shader::with_features(
            "h.wgsl",
            "enable f16; override h: f16 = 1.0h;
             @compute @workgroup_size(1) fn cs_main() { _ = h; }",
            wgpu::Features::SHADER_F16,
        )
        .unwrap();
        assert_eq!(s.overrides()[0].ty, OverrideType::F16);
        assert_eq!(s.overrides()[0].default, Some(1.0));
        s.check_constants("k", &given(&[("h", 65504.0)])).unwrap();
        let e = s
            .check_constants("k", &given(&[("h", 70000.0)]))
            .unwrap_err();
        assert_eq!(e.code(), "VGPU-CONSTANT-TYPE");
    }

    #[test]
    fn workgroup_size_follows_the_override() {
        let s = shader();
        assert_eq!(s.workgroup_size_with("cs_main", &[]), Some([32, 2, 1]));
        assert_eq!(
            s.workgroup_size_with("cs_main", &given(&[("wg", 8.0)])),
            Some([8, 2, 1])
        );
        assert_eq!(s.workgroup_size_with("nope", &[]), None);
        let literal =
            Shader::new("l.wgsl", "@compute @workgroup_size(4, 4) fn cs_main() {}").unwrap();
        assert_eq!(literal.workgroup_size_with("cs_main", &[]), Some([4, 4, 1]));
    }
}
