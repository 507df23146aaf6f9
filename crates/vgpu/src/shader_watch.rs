//! [`WatchedShader`]: hot reload (feature `hot-reload`, not on wasm32). A shader composed from a
//! folder of modules whose files are watched (the `notify` crate); the first frame after a change
//! recomposes it and, on success, moves its draws onto the new shader with every value kept
//! ([`Gpu::replace_shader`]); on failure the old shader keeps rendering and the error is kept.
//!
//! The watcher's thread only raises a flag; composing, validating and moving the draws happen on
//! the thread that begins the frame, before the frame's state is opened (so a frame never sees
//! half a reload). Frames of a `Gpu` with nothing watched pay one atomic load.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};

use crate::descriptors::GpuId;
use crate::error::{Error, Result};
use crate::gpu::Gpu;
use crate::reload_error::ReloadError;
use crate::shader::Shader;
use crate::shader_reload::ShaderReload;
use crate::state::ShaderRecord;

/// The outcome of one reload of a [`WatchedShader`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum ReloadEvent {
    /// The modules composed and the draws moved onto the new shader.
    Reloaded(ShaderReload),
    /// Composing or moving failed (`VGPU-SHADER-MODULE` naming the file, line and column;
    /// `VGPU-SHADER-RELOAD`; …): the old shader keeps rendering.
    Failed(Arc<Error>),
}

impl std::fmt::Display for ReloadEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReloadEvent::Reloaded(r) => write!(f, "reloaded: {r}"),
            ReloadEvent::Failed(e) => write!(f, "reload failed, the previous shader stays: {e}"),
        }
    }
}

/// A shader composed from a folder of modules that follows its files: when one changes (or is
/// added or removed), the next frame of its `Gpu` recomposes it; on success every draw, effect
/// and compute made from it moves onto the new shader, pipelines rebuilt and every value kept
/// ([`Gpu::replace_shader`]); on failure the previous shader keeps rendering and
/// [`error`](Self::error) says why, with the module's file, line and column. Fixing the file
/// (or adding a missing module) is picked up the same way. Dropping it stops watching.
///
/// Made by [`Gpu::watch_shader`]. Cheap to clone.
#[derive(Clone, Debug)]
pub struct WatchedShader {
    inner: Arc<Watch>,
}

/// One watched shader.
struct Watch {
    gpu: GpuId,
    label: String,
    modules: vgpu_modules::ShaderModules,
    root: String,
    /// What the watcher's thread raises.
    flags: Arc<Flags>,
    status: Mutex<Status>,
    /// Kept to keep watching; dropped with the last handle.
    _watcher: Mutex<notify::RecommendedWatcher>,
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("label", &self.label)
            .field("root", &self.root)
            .finish_non_exhaustive()
    }
}

/// What the watcher's thread tells a watch.
#[derive(Debug, Default)]
struct Flags {
    /// Raised when a file under the folder changed (cleared by the reload that follows).
    changed: AtomicBool,
    /// File events seen (any kind but reads).
    events: AtomicU64,
}

/// What the last reloads did.
#[derive(Debug)]
struct Status {
    shader: Shader,
    error: Option<Arc<Error>>,
    reloads: u64,
    events: Vec<ReloadEvent>,
}

/// Watches alive in the process (their frames look for changes); and how many, so that frames
/// of processes watching nothing look no further than one load.
static WATCHES: Mutex<Vec<Weak<Watch>>> = Mutex::new(Vec::new());
static LIVE_WATCHES: AtomicUsize = AtomicUsize::new(0);

/// Events kept per watched shader until taken ([`WatchedShader::take_events`]).
const MAX_EVENTS: usize = 16;

impl Gpu {
    /// The shader composed from `modules` (a folder: [`ShaderModules::folder`]) with root module
    /// `root`, as [`shader_from`](Self::shader_from) makes it, whose folder is then watched for
    /// changes: see [`WatchedShader`]. Make draws from [`WatchedShader::shader`]. Errors as
    /// `shader_from`'s, and `VGPU-SHADER-WATCH` when the modules are not in a folder or the
    /// folder cannot be watched.
    ///
    /// [`ShaderModules::folder`]: crate::ShaderModules::folder
    pub fn watch_shader(
        &self,
        label: &str,
        modules: &vgpu_modules::ShaderModules,
        root: &str,
    ) -> Result<WatchedShader> {
        let watch_error = |reason: String| -> Error {
            ReloadError::Watch {
                label: label.to_owned(),
                reason,
            }
            .into()
        };
        let vgpu_modules::ModuleRoot::Folder(folder) = modules.root() else {
            return Err(watch_error(
                "its modules are in memory; give `ShaderModules::folder`".to_owned(),
            ));
        };
        let folder: PathBuf = folder.clone();
        if !folder.is_dir() {
            return Err(watch_error(format!("{} is not a folder", folder.display())));
        }
        let shader = self.shader_from(label, modules, root)?;
        let flags = Arc::new(Flags::default());
        let seen = flags.clone();
        let mut watcher =
            notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
                // Reads (the composer's own) are not changes; a watcher error may have missed
                // one: recompose to be sure.
                let change = match &event {
                    Ok(e) => !matches!(e.kind, notify::EventKind::Access(_)),
                    Err(_) => true,
                };
                if change {
                    seen.events.fetch_add(1, Ordering::Relaxed);
                    seen.changed.store(true, Ordering::Release);
                }
            })
            .map_err(|e| watch_error(e.to_string()))?;
        notify::Watcher::watch(&mut watcher, &folder, notify::RecursiveMode::Recursive)
            .map_err(|e| watch_error(format!("{}: {e}", folder.display())))?;
        let inner = Arc::new(Watch {
            gpu: self.id(),
            label: label.to_owned(),
            modules: vgpu_modules::build::with_std(modules.clone()),
            root: root.to_owned(),
            flags,
            status: Mutex::new(Status {
                shader,
                error: None,
                reloads: 0,
                events: Vec::new(),
            }),
            _watcher: Mutex::new(watcher),
        });
        let mut watches = WATCHES.lock().unwrap_or_else(|p| p.into_inner());
        watches.retain(|w| w.strong_count() > 0);
        watches.push(Arc::downgrade(&inner));
        LIVE_WATCHES.store(watches.len(), Ordering::Release);
        Ok(WatchedShader { inner })
    }

    /// Applies the changes the watchers of this `Gpu`'s shaders saw (frames call it first).
    pub(crate) fn apply_shader_changes(&self) {
        if LIVE_WATCHES.load(Ordering::Acquire) == 0 {
            return;
        }
        let pending: Vec<Arc<Watch>> = {
            let mut watches = WATCHES.lock().unwrap_or_else(|p| p.into_inner());
            watches.retain(|w| w.strong_count() > 0);
            LIVE_WATCHES.store(watches.len(), Ordering::Release);
            watches
                .iter()
                .filter_map(Weak::upgrade)
                .filter(|w| w.gpu == self.id() && w.flags.changed.load(Ordering::Acquire))
                .collect()
        };
        for watch in pending {
            watch.reload(self);
        }
    }
}

impl Watch {
    /// Recomposes the shader and moves its draws onto it (see [`WatchedShader`]).
    fn reload(&self, gpu: &Gpu) -> Option<ReloadEvent> {
        if !self.flags.changed.swap(false, Ordering::AcqRel) {
            return None;
        }
        let composed = vgpu_core::Shader::from_modules_for_context(
            &gpu.ctx,
            &self.label,
            &self.modules,
            &self.root,
        );
        let mut status = self.status.lock().unwrap_or_else(|p| p.into_inner());
        let outcome = composed.map_err(Error::from).and_then(|core| {
            let new = Shader {
                inner: Arc::new(ShaderRecord::new(core, gpu.id())),
            };
            let report = gpu.replace_shader(&status.shader, &new)?;
            Ok((new, report))
        });
        let event = match outcome {
            Ok((new, report)) => {
                status.shader = new;
                status.error = None;
                status.reloads += 1;
                ReloadEvent::Reloaded(report)
            }
            Err(e) => {
                let e = Arc::new(e);
                status.error = Some(e.clone());
                ReloadEvent::Failed(e)
            }
        };
        if status.events.len() == MAX_EVENTS {
            status.events.remove(0);
        }
        status.events.push(event.clone());
        Some(event)
    }
}

impl WatchedShader {
    /// The shader as it is now (the last one that composed): make draws from it.
    pub fn shader(&self) -> Shader {
        self.inner.status().shader.clone()
    }

    /// The label given at creation.
    pub fn label(&self) -> &str {
        &self.inner.label
    }

    /// The error of the last reload, until one succeeds (`None` while the files compose).
    pub fn error(&self) -> Option<Arc<Error>> {
        self.inner.status().error.clone()
    }

    /// How many reloads succeeded.
    pub fn reloads(&self) -> u64 {
        self.inner.status().reloads
    }

    /// Whether a change was seen that no frame has applied yet.
    pub fn pending(&self) -> bool {
        self.inner.flags.changed.load(Ordering::Acquire)
    }

    /// How many file events the watcher has seen (changes, additions, removals; not reads).
    pub fn file_events(&self) -> u64 {
        self.inner.flags.events.load(Ordering::Relaxed)
    }

    /// The reloads' outcomes since the last call, oldest first (at most the last 16): what an
    /// app prints.
    pub fn take_events(&self) -> Vec<ReloadEvent> {
        std::mem::take(&mut self.inner.status().events)
    }

    /// Applies a pending change now instead of at the next frame: `None` when no change is
    /// pending, else what it did.
    pub fn reload_now(&self, gpu: &Gpu) -> Result<Option<ReloadEvent>> {
        if self.inner.gpu != gpu.id() {
            return Err(crate::error::foreign_gpu(
                "watched shader",
                &self.inner.label,
                "WatchedShader::reload_now".to_owned(),
            ));
        }
        Ok(self.inner.reload(gpu))
    }
}

impl Watch {
    fn status(&self) -> std::sync::MutexGuard<'_, Status> {
        self.status.lock().unwrap_or_else(|p| p.into_inner())
    }
}
