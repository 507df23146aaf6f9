//! `--mode struct`, `--mode typed` and `--mode buffer`: the same frames through the vgpu API.
//!
//! - [`StructCapture`], the idiomatic API: one [`SharedUniforms`] camera bound to every draw,
//!   each draw's own `object` set by binding name as a struct value, once at setup and then only
//!   when the scenario changes it (or, in `reset-all`, re-sets it unchanged); the camera set
//!   before each pass in `per-pass-camera`, once at setup otherwise; `draws` [`Draw`]s drawn in
//!   every pass.
//! - [`TypedCapture`], the same with the typed path: the camera a derived [`Frame`] and each
//!   object a derived [`Object`] (`#[derive(vgpu::Uniform)]`) instead of `value!`s, set through
//!   each draw's `object` binding resolved and checked for `Object` once
//!   ([`vgpu::TypedBinding`]), all of a frame's object sets in one [`vgpu::SetBatch`].
//! - [`BufferCapture`], the seed's workaround: user-owned [`Buffer`]s bound by identity, one
//!   camera buffer per pass (one buffer cannot hold two values in one submission), one 64-byte
//!   object buffer per draw, written only when their bytes change, and one [`Draw`] per
//!   (object, pass).
//!
//! Every pass draws its objects in index order, except in `reshuffle`, where it draws
//! [`Scenario::draw_order`]'s sequence (the same objects in the same order in every mode).
//!
//! Times come from [`vgpu::FrameReport`]; the scenario updates run inside `gpu.frame`, so the
//! encode time covers them as the raw mode's does. Each frame is followed by `wait_idle`.

use std::cell::Cell;

use vgpu::low_level::UncapturedError;
use vgpu::{
    Buffer, BufferDesc, Draw, DrawDesc, Gpu, GpuOptions, SharedUniforms, StatsSnapshot, Target,
    TypedBinding, Value, value,
};

use crate::capture::{
    BenchError, FrameLoop, FrameTimes, Mat4, SHADER_WGSL, Scenario, TARGET_SIZE, camera_matrix,
    changed_world, columns, initial_world,
};

/// Creates the [`Gpu`] of a vgpu mode for `backend`.
///
/// GPU pass timing (timestamp queries) is turned off: the raw twin records none, and the
/// comparison is about the capture path. Auto-bundles and parallel finishing are on, as by
/// default, unless the environment has `VGPU_AUTO_BUNDLES=0` (to measure what recording every
/// draw costs) or `VGPU_PARALLEL_FINISH=0` (every frame in one encoder, finished on the frame's
/// thread), as `GpuOptions::from_env` reads them: the command line stays as scripts call it.
pub fn gpu_for(backend: vgpu::BackendChoice) -> Result<Gpu, BenchError> {
    let gpu = Gpu::new(&GpuOptions {
        backend,
        ..GpuOptions::from_env()?
    })?;
    gpu.set_gpu_timing(false);
    Ok(gpu)
}

/// `--mode struct`: shared uniforms for the camera, a struct value per draw.
#[derive(Debug)]
pub struct StructCapture {
    gpu: Gpu,
    scenario: Scenario,
    passes: usize,
    camera: SharedUniforms,
    /// The camera value, reused (its matrix is replaced in place: no allocation per set).
    camera_value: Value,
    draws: Vec<Draw>,
    /// Each draw's `Object` value, reused the same way.
    values: Vec<Value>,
    target: Target,
}

impl StructCapture {
    /// Builds `draws` draws, each bound to one shared camera and its own object value.
    pub fn new(
        gpu: Gpu,
        scenario: Scenario,
        draws: usize,
        passes: usize,
    ) -> Result<StructCapture, BenchError> {
        let target = gpu.target(TARGET_SIZE, TARGET_SIZE)?;
        let shader = gpu.shader("capture.wgsl", SHADER_WGSL)?;
        let camera = gpu.uniforms(value! { view_projection: camera_matrix(0) })?;
        let mut list = Vec::with_capacity(draws);
        let mut values = Vec::with_capacity(draws);
        for i in 0..draws {
            let draw = gpu.draw(
                &shader,
                DrawDesc {
                    label: format!("object {i}"),
                    vertex_count: Some(3),
                    ..Default::default()
                },
            )?;
            draw.set("frame", &camera)?;
            let value = value! { world: initial_world(i) };
            draw.set("object", &value)?;
            list.push(draw);
            values.push(value);
        }
        Ok(StructCapture {
            gpu,
            scenario,
            passes,
            camera,
            camera_value: value! { view_projection: camera_matrix(0) },
            draws: list,
            values,
            target,
        })
    }
}

impl FrameLoop for StructCapture {
    fn frame(&mut self, index: u64) -> Result<FrameTimes, BenchError> {
        let (scenario, passes) = (self.scenario, self.passes);
        let (camera, draws, target) = (&self.camera, &self.draws, &self.target);
        let (values, camera_value) = (&mut self.values, &mut self.camera_value);
        let report = self.gpu.frame(|f| {
            for i in scenario.changed_objects(index, draws.len()) {
                values[i].set_field("world", changed_world(i, index));
                draws[i].set("object", &values[i])?;
            }
            let reset = scenario.reset_objects(draws.len());
            for (draw, value) in draws[reset.clone()].iter().zip(&values[reset]) {
                draw.set("object", value)?;
            }
            for pass in 0..passes {
                if scenario.camera_per_pass() {
                    camera_value.set_field("view_projection", camera_matrix(pass));
                    camera.set(&*camera_value)?;
                }
                let order = scenario.draw_order(index, pass, passes, draws.len());
                f.pass(target, |p| {
                    match order {
                        // `reshuffle`: this pass's objects, in its order.
                        Some(order) => {
                            for i in order {
                                p.draw(&draws[i])?;
                            }
                        }
                        None => {
                            for d in draws {
                                p.draw(d)?;
                            }
                        }
                    }
                    Ok(())
                })?;
            }
            Ok(())
        })?;
        self.gpu.wait_idle()?;
        Ok(FrameTimes {
            encode: report.encode,
            submit: report.submit,
        })
    }

    fn stats(&self) -> StatsSnapshot {
        self.gpu.stats()
    }

    fn take_uncaptured_errors(&self) -> Vec<UncapturedError> {
        self.gpu.take_uncaptured_errors()
    }

    fn backend(&self) -> &'static str {
        self.gpu.adapter_info().backend.to_str()
    }

    fn adapter(&self) -> String {
        self.gpu.adapter_info().name.clone()
    }

    fn describe(&self) -> String {
        format!(
            "vgpu struct: {} draws, one SharedUniforms camera, per-draw `object` struct values",
            self.draws.len()
        )
    }
}

/// The shader's `Frame` as a typed value (`--mode typed`).
#[derive(Clone, Copy, Debug, vgpu::Uniform)]
pub struct Frame {
    /// `mat4x4f`, column-major.
    pub view_projection: [[f32; 4]; 4],
}

/// The shader's `Object` as a typed value (`--mode typed`).
#[derive(Clone, Copy, Debug, vgpu::Uniform)]
pub struct Object {
    /// `mat4x4f`, column-major.
    pub world: [[f32; 4]; 4],
}

/// `--mode typed`: [`StructCapture`] with typed values, a derived [`Frame`] for the camera and
/// a derived [`Object`] per draw, set by binding name.
#[derive(Debug)]
pub struct TypedCapture {
    gpu: Gpu,
    scenario: Scenario,
    passes: usize,
    camera: SharedUniforms,
    /// The camera value, reused (its matrix is replaced in place before a set).
    camera_value: Frame,
    draws: Vec<Draw>,
    /// Each draw's `object` binding, resolved and checked for [`Object`] once.
    object_bindings: Vec<TypedBinding<Object>>,
    /// Each draw's `Object` value, kept as the application's state.
    objects: Vec<Object>,
    target: Target,
}

impl TypedCapture {
    /// Builds `draws` draws, each bound to one shared camera and its own typed object value.
    pub fn new(
        gpu: Gpu,
        scenario: Scenario,
        draws: usize,
        passes: usize,
    ) -> Result<TypedCapture, BenchError> {
        let target = gpu.target(TARGET_SIZE, TARGET_SIZE)?;
        let shader = gpu.shader("capture.wgsl", SHADER_WGSL)?;
        let camera_value = Frame {
            view_projection: columns(&camera_matrix(0)),
        };
        let camera = gpu.uniforms(&camera_value)?;
        let mut list = Vec::with_capacity(draws);
        let mut object_bindings = Vec::with_capacity(draws);
        let mut objects = Vec::with_capacity(draws);
        for i in 0..draws {
            let draw = gpu.draw(
                &shader,
                DrawDesc {
                    label: format!("object {i}"),
                    vertex_count: Some(3),
                    ..Default::default()
                },
            )?;
            draw.set("frame", &camera)?;
            let object = Object {
                world: columns(&initial_world(i)),
            };
            let binding = draw.typed_binding::<Object>("object")?;
            binding.set(&object)?;
            list.push(draw);
            object_bindings.push(binding);
            objects.push(object);
        }
        Ok(TypedCapture {
            gpu,
            scenario,
            passes,
            camera,
            camera_value,
            draws: list,
            object_bindings,
            objects,
            target,
        })
    }
}

impl FrameLoop for TypedCapture {
    fn frame(&mut self, index: u64) -> Result<FrameTimes, BenchError> {
        let (scenario, passes) = (self.scenario, self.passes);
        let (camera, draws, target) = (&self.camera, &self.draws, &self.target);
        let (objects, camera_value) = (&mut self.objects, &mut self.camera_value);
        let (gpu, bindings) = (&self.gpu, &self.object_bindings);
        let report = self.gpu.frame(|f| {
            // The typed path: resolved bindings, one lock for all the frame's sets.
            let mut batch = gpu.batch();
            for i in scenario.changed_objects(index, draws.len()) {
                objects[i].world = columns(&changed_world(i, index));
                batch.set_typed(&bindings[i], &objects[i])?;
            }
            let reset = scenario.reset_objects(draws.len());
            for (binding, object) in bindings[reset.clone()].iter().zip(&objects[reset]) {
                batch.set_typed(binding, object)?;
            }
            drop(batch);
            for pass in 0..passes {
                if scenario.camera_per_pass() {
                    camera_value.view_projection = columns(&camera_matrix(pass));
                    camera.set(&*camera_value)?;
                }
                let order = scenario.draw_order(index, pass, passes, draws.len());
                f.pass(target, |p| {
                    match order {
                        // `reshuffle`: this pass's objects, in its order.
                        Some(order) => {
                            for i in order {
                                p.draw(&draws[i])?;
                            }
                        }
                        None => {
                            for d in draws {
                                p.draw(d)?;
                            }
                        }
                    }
                    Ok(())
                })?;
            }
            Ok(())
        })?;
        self.gpu.wait_idle()?;
        Ok(FrameTimes {
            encode: report.encode,
            submit: report.submit,
        })
    }

    fn stats(&self) -> StatsSnapshot {
        self.gpu.stats()
    }

    fn take_uncaptured_errors(&self) -> Vec<UncapturedError> {
        self.gpu.take_uncaptured_errors()
    }

    fn backend(&self) -> &'static str {
        self.gpu.adapter_info().backend.to_str()
    }

    fn adapter(&self) -> String {
        self.gpu.adapter_info().name.clone()
    }

    fn describe(&self) -> String {
        format!(
            "vgpu typed: {} draws, one SharedUniforms camera (derived `Frame`), per-draw `object` derived `Object` values set through resolved bindings in one batch per frame",
            self.draws.len()
        )
    }
}

/// A user-owned buffer and the bytes last written to it.
#[derive(Debug)]
struct Written {
    buffer: Buffer,
    last: Cell<Mat4>,
}

impl Written {
    fn new(gpu: &Gpu, label: String, value: &Mat4) -> Result<Written, BenchError> {
        let buffer = gpu.buffer(&BufferDesc {
            label,
            size: 64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        })?;
        buffer.write(0, bytemuck::bytes_of(value))?;
        Ok(Written {
            buffer,
            last: Cell::new(*value),
        })
    }

    /// Writes `value` only if its bytes differ from the last write.
    fn update(&self, value: &Mat4) -> vgpu::Result<()> {
        if bytemuck::bytes_of(&self.last.get()) != bytemuck::bytes_of(value) {
            self.buffer.write(0, bytemuck::bytes_of(value))?;
            self.last.set(*value);
        }
        Ok(())
    }
}

/// `--mode buffer`: user-owned buffers bound by identity, one draw per (object, pass).
#[derive(Debug)]
pub struct BufferCapture {
    gpu: Gpu,
    scenario: Scenario,
    cameras: Vec<Written>,
    objects: Vec<Written>,
    /// `draws[pass][i]` binds camera buffer `pass` and object buffer `i`.
    draws: Vec<Vec<Draw>>,
    /// Each object's current matrix, the application's state (kept for `reset-all` only).
    worlds: Vec<Mat4>,
    target: Target,
}

impl BufferCapture {
    /// Builds one camera buffer per pass, one object buffer per object, and `draws x passes`
    /// draws; initial values are written at setup.
    pub fn new(
        gpu: Gpu,
        scenario: Scenario,
        draws: usize,
        passes: usize,
    ) -> Result<BufferCapture, BenchError> {
        let target = gpu.target(TARGET_SIZE, TARGET_SIZE)?;
        let shader = gpu.shader("capture.wgsl", SHADER_WGSL)?;
        let cameras = (0..passes)
            .map(|k| {
                let value = if scenario.camera_per_pass() {
                    camera_matrix(k)
                } else {
                    camera_matrix(0)
                };
                Written::new(&gpu, format!("camera {k}"), &value)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let objects = (0..draws)
            .map(|i| Written::new(&gpu, format!("object {i}"), &initial_world(i)))
            .collect::<Result<Vec<_>, _>>()?;
        let mut per_pass = Vec::with_capacity(passes);
        for (k, camera) in cameras.iter().enumerate() {
            let mut list = Vec::with_capacity(draws);
            for (i, object) in objects.iter().enumerate() {
                let draw = gpu.draw(
                    &shader,
                    DrawDesc {
                        label: format!("object {i} pass {k}"),
                        vertex_count: Some(3),
                        ..Default::default()
                    },
                )?;
                draw.set("frame", &camera.buffer)?;
                draw.set("object", &object.buffer)?;
                list.push(draw);
            }
            per_pass.push(list);
        }
        let worlds = scenario.reset_objects(draws).map(initial_world).collect();
        Ok(BufferCapture {
            gpu,
            scenario,
            cameras,
            objects,
            draws: per_pass,
            worlds,
            target,
        })
    }
}

impl FrameLoop for BufferCapture {
    fn frame(&mut self, index: u64) -> Result<FrameTimes, BenchError> {
        let scenario = self.scenario;
        let (cameras, objects, draws, worlds, target) = (
            &self.cameras,
            &self.objects,
            &self.draws,
            &self.worlds,
            &self.target,
        );
        let report = self.gpu.frame(|f| {
            for i in scenario.changed_objects(index, objects.len()) {
                objects[i].update(&changed_world(i, index))?;
            }
            // The same matrix again: `update` compares and writes nothing.
            // `worlds` holds the matrices of the objects `reset-all` re-sets (all of them).
            for (object, world) in objects.iter().zip(worlds) {
                object.update(world)?;
            }
            for (pass, pass_draws) in draws.iter().enumerate() {
                if scenario.camera_per_pass() {
                    cameras[pass].update(&camera_matrix(pass))?;
                }
                let order = scenario.draw_order(index, pass, draws.len(), pass_draws.len());
                f.pass(target, |p| {
                    match order {
                        // `reshuffle`: this pass's objects, in its order.
                        Some(order) => {
                            for i in order {
                                p.draw(&pass_draws[i])?;
                            }
                        }
                        None => {
                            for d in pass_draws {
                                p.draw(d)?;
                            }
                        }
                    }
                    Ok(())
                })?;
            }
            Ok(())
        })?;
        self.gpu.wait_idle()?;
        Ok(FrameTimes {
            encode: report.encode,
            submit: report.submit,
        })
    }

    fn stats(&self) -> StatsSnapshot {
        self.gpu.stats()
    }

    fn take_uncaptured_errors(&self) -> Vec<UncapturedError> {
        self.gpu.take_uncaptured_errors()
    }

    fn backend(&self) -> &'static str {
        self.gpu.adapter_info().backend.to_str()
    }

    fn adapter(&self) -> String {
        self.gpu.adapter_info().name.clone()
    }

    fn describe(&self) -> String {
        format!(
            "vgpu buffer: {} camera buffers, {} object buffers, {} draws (one per object and pass)",
            self.cameras.len(),
            self.objects.len(),
            self.draws.iter().map(Vec::len).sum::<usize>()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Draws recorded (`operations_recorded`) in each frame `0..frames` of `looper`.
    fn draws_per_frame(looper: &mut dyn FrameLoop, frames: u64) -> Vec<u64> {
        let counts = (0..frames)
            .map(|f| {
                let before = looper.stats();
                looper.frame(f).expect("frame on noop");
                (looper.stats() - before).operations_recorded
            })
            .collect();
        assert_eq!(looper.take_uncaptured_errors(), vec![]);
        counts
    }

    #[test]
    fn every_vgpu_mode_draws_the_reshuffled_tenth_less_and_all_draws_otherwise() {
        let noop = || gpu_for(vgpu::BackendChoice::Noop).expect("noop gpu");
        for scenario in [Scenario::Static, Scenario::Reshuffle] {
            // 50 objects, 2 passes: reshuffle culls 5 per pass.
            let expected = if scenario == Scenario::Reshuffle {
                2 * 45
            } else {
                2 * 50
            };
            let loopers: [Box<dyn FrameLoop>; 3] = [
                Box::new(StructCapture::new(noop(), scenario, 50, 2).expect("struct")),
                Box::new(TypedCapture::new(noop(), scenario, 50, 2).expect("typed")),
                Box::new(BufferCapture::new(noop(), scenario, 50, 2).expect("buffer")),
            ];
            for mut looper in loopers {
                let counts = draws_per_frame(looper.as_mut(), 4);
                assert_eq!(counts, [expected; 4], "{scenario:?}: {}", looper.describe());
            }
        }
    }
}
