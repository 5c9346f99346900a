//! What the app needs before Bevy starts: a display to open its window on and a graphics
//! adapter to draw with. Without them winit and Bevy panic with a backtrace; a user on a
//! server gets one line instead, naming what is missing and how to get it.

use bevy::render::settings::WgpuSettings;

const REMEDY: &str = "run the app under xvfb-run -a -s \"-screen 0 1600x900x24\" with Mesa's \
     Vulkan driver (apt-get install -y xvfb mesa-vulkan-drivers libvulkan1), or use the \
     headless `gyrolab simulate` and `gyrolab compare`, or take a lesson in the terminal \
     with `gyrolab lesson NAME --ask`";

/// The display, then the adapter; the error is one line.
pub fn check() -> Result<(), String> {
    display()?;
    adapter()
}

/// An X server that accepts a connection: this build draws through X11 only.
fn display() -> Result<(), String> {
    let Some(display) = std::env::var("DISPLAY").ok().filter(|d| !d.is_empty()) else {
        return Err(if std::env::var_os("WAYLAND_DISPLAY").is_some() {
            format!(
                "no X display: DISPLAY is unset, and the app draws through X11 (a Wayland session needs XWayland); {REMEDY}"
            )
        } else {
            format!("no display: DISPLAY is unset; {REMEDY}")
        });
    };
    x11rb::connect(Some(&display))
        .map(drop)
        .map_err(|e| format!("cannot open the X display '{display}' ({e}); {REMEDY}"))
}

/// An adapter found the way Bevy's renderer finds one: its backends, its power
/// preference, the same environment variables.
fn adapter() -> Result<(), String> {
    let settings = WgpuSettings::default();
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: settings.backends.unwrap_or(wgpu::Backends::all()),
        flags: settings.instance_flags,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let options = wgpu::RequestAdapterOptions {
        power_preference: settings.power_preference,
        compatible_surface: None,
        force_fallback_adapter: false,
    };
    bevy::tasks::block_on(instance.request_adapter(&options))
        .map(drop)
        .map_err(|e| {
            let reason = e
                .to_string()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            format!("no graphics adapter ({reason}); {REMEDY}")
        })
}
