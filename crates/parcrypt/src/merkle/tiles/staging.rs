//! Where `rebuild` writes before it commits: a fresh directory under
//! `tile/`, removed on drop.
use super::*;

/// Where [`rebuild`] writes: a fresh directory under `tile/`, removed on
/// drop (after a failure, or after the commit with the old levels in it).
pub(super) struct Staging {
    pub(super) path: PathBuf,
}

impl Staging {
    pub(super) fn new(tile_dir: &Path) -> Result<Staging, Error> {
        fs::create_dir_all(tile_dir).map_err(io_error(tile_dir))?;
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let path = tile_dir.join(format!(".rebuild-{}-{stamp}", std::process::id()));
        fs::create_dir(&path).map_err(io_error(&path))?;
        let staging = Staging { path };
        let new = staging.path.join("new");
        fs::create_dir(&new).map_err(io_error(&new))?;
        Ok(staging)
    }

    /// Moves the old level directories aside, then the new ones in.
    pub(super) fn commit(&self, tile_dir: &Path, old_levels: &[PathBuf]) -> Result<(), Error> {
        let old = self.path.join("old");
        fs::create_dir(&old).map_err(io_error(&old))?;
        for level in old_levels {
            let aside = old.join(level.file_name().unwrap_or_default());
            fs::rename(level, &aside).map_err(io_error(level))?;
        }
        let new = self.path.join("new");
        for level in level_dirs(&new)? {
            let target = tile_dir.join(level.file_name().unwrap_or_default());
            fs::rename(&level, &target).map_err(io_error(&target))?;
        }
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}
