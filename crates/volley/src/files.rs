//! Saved games and scenarios on disk: read with errors that name the file, written
//! atomically (a temporary file beside the target, then a rename) so that a failure leaves
//! whatever was there whole. The engine itself only turns a save into text and back.

use std::path::Path;
use volley_core::session::SessionError;
use volley_core::SaveFile;

/// Reads a saved game, with a clear error for a missing, truncated or corrupt file.
pub fn read_save(path: &Path) -> Result<SaveFile, String> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{shown}: {e}"))?;
    SaveFile::from_json(&text, &shown).map_err(|e: SessionError| e.to_string())
}

/// Writes a saved game atomically.
pub fn write_save(path: &Path, save: &SaveFile) -> Result<(), String> {
    write_atomic(path, &save.to_json()).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes a text file atomically: a temporary file beside it, then a rename, so a failure
/// leaves whatever was there whole.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}
