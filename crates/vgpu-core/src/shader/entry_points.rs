//! Finding entry points (by name, or the default of a stage) and the bind-group layouts of a
//! pipeline made of some of them.

use super::Shader;
use crate::pipeline_layout::PipelineLayoutDesc;
use crate::reflect::{BindingInfo, EntryPointInfo, Stage};
use crate::shader_error::ShaderError;

impl Shader {
    /// Every entry point, in declaration order.
    pub fn entry_points(&self) -> &[EntryPointInfo] {
        &self.entry_points
    }

    /// The entry point with this function name.
    pub fn entry_point_named(&self, name: &str) -> Option<&EntryPointInfo> {
        self.entry_points.iter().find(|e| e.name == name)
    }

    /// The entry point of `stage`: the one called `name` if given; otherwise the one called
    /// `vs_main` / `fs_main` / `cs_main`, or else the only one of that stage.
    pub fn entry_point(
        &self,
        stage: Stage,
        name: Option<&str>,
    ) -> Result<&EntryPointInfo, ShaderError> {
        let err = |expected: String, actual: String| ShaderError::EntryPoint {
            label: self.label.to_string(),
            expected,
            actual,
            available: self
                .entry_points
                .iter()
                .map(|e| format!("{} ({})", e.name, e.stage.name()))
                .collect(),
        };
        if let Some(name) = name {
            return match self.entry_point_named(name) {
                Some(e) if e.stage == stage => Ok(e),
                Some(e) => Err(err(
                    format!("a {} entry point named `{name}`", stage.name()),
                    format!("`{name}` is a {} entry point", e.stage.name()),
                )),
                None => Err(err(
                    format!("a {} entry point named `{name}`", stage.name()),
                    format!("no entry point named `{name}`"),
                )),
            };
        }
        let default = stage.default_entry_point();
        if let Some(e) = self
            .entry_points
            .iter()
            .find(|e| e.stage == stage && e.name == default)
        {
            return Ok(e);
        }
        let mut of_stage = self.entry_points.iter().filter(|e| e.stage == stage);
        match (of_stage.next(), of_stage.next()) {
            (Some(e), None) => Ok(e),
            (None, _) => Err(err(
                format!("a {} entry point", stage.name()),
                format!("no {} entry point", stage.name()),
            )),
            (Some(_), Some(_)) => Err(err(
                format!("one {} entry point, or one named `{default}`", stage.name()),
                format!(
                    "several: {}",
                    self.entry_points
                        .iter()
                        .filter(|e| e.stage == stage)
                        .map(|e| e.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        }
    }

    /// The bindings an entry point uses.
    pub fn entry_point_bindings<'a>(
        &'a self,
        entry: &'a EntryPointInfo,
    ) -> impl Iterator<Item = &'a BindingInfo> + 'a {
        entry.bindings.iter().filter_map(|&i| self.bindings.get(i))
    }

    /// Explicit bind-group layouts for a pipeline made of `entry_points` (e.g. vertex +
    /// fragment): the bindings any of them uses, visibility = the union of the stages that use
    /// each, `has_dynamic_offset` chosen per buffer binding by `dynamic_offset`. Fails on a
    /// gap in the group numbers or on conflicting declarations of one (group, binding).
    pub fn pipeline_layout(
        &self,
        entry_points: &[&EntryPointInfo],
        dynamic_offset: impl Fn(&BindingInfo) -> bool,
    ) -> Result<PipelineLayoutDesc, ShaderError> {
        let uses = entry_points.iter().flat_map(|e| {
            let stage = e.stage.to_wgpu();
            self.entry_point_bindings(e).map(move |b| (b, stage))
        });
        PipelineLayoutDesc::build(&self.label, uses, dynamic_offset)
    }
}
