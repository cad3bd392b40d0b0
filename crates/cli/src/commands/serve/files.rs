//! The files the explorer serves: its own page, compiled in, and the reports
//! folder, read-only, with every path checked to stay inside it.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::path::{Component, Path, PathBuf};

/// The page's assets, compiled into the binary.
pub const ASSETS: [(&str, &str, &str); 3] = [
    ("/", include_str!("assets/index.html"), "text/html; charset=utf-8"),
    ("/app.js", include_str!("assets/app.js"), "text/javascript; charset=utf-8"),
    ("/style.css", include_str!("assets/style.css"), "text/css; charset=utf-8"),
];

/// One of the page's assets.
pub fn asset(path: &str) -> Response {
    match ASSETS.iter().find(|(p, _, _)| *p == path) {
        Some((_, body, kind)) => {
            let mut response = (*body).into_response();
            response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
            response
        }
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

/// The content type of a report file, by its extension; `None` for any
/// other kind of file, which is not served.
fn content_type(path: &Path) -> Option<&'static str> {
    Some(match path.extension()?.to_str()? {
        "html" => "text/html; charset=utf-8",
        "md" => "text/markdown; charset=utf-8",
        "csv" => "text/csv; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "parquet" => "application/vnd.apache.parquet",
        _ => return None,
    })
}

/// The file under `root` that a request's path (after `/reports/`) names, or
/// `None` when it would leave the folder: a `..`, an absolute or Windows
/// path, a hidden name (the report writer's temporary folders), or a link
/// leading outside.
pub fn resolve(root: &Path, relative: &str) -> Option<PathBuf> {
    if relative.contains('\\') || relative.contains('\0') {
        return None;
    }
    let relative = if relative.is_empty() || relative.ends_with('/') {
        format!("{relative}index.html")
    } else {
        relative.to_string()
    };
    let mut path = root.to_path_buf();
    for component in Path::new(&relative).components() {
        match component {
            Component::Normal(name) if !name.to_string_lossy().starts_with('.') => path.push(name),
            _ => return None,
        }
    }
    // Links are followed only where they stay inside the folder.
    let real_root = root.canonicalize().ok()?;
    let real = path.canonicalize().ok()?;
    (real.starts_with(&real_root) && real.is_file()).then_some(real)
}

/// A file of the reports folder.
pub async fn report_file(root: &Path, relative: &str) -> Response {
    let Some(path) = resolve(root, relative) else {
        return (StatusCode::NOT_FOUND, "no such report file").into_response();
    };
    let Some(kind) = content_type(&path) else {
        return (StatusCode::NOT_FOUND, "no such report file").into_response();
    };
    match tokio::fs::read(&path).await {
        Ok(bytes) => {
            let mut response = bytes.into_response();
            response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
            response
        }
        Err(_) => (StatusCode::NOT_FOUND, "no such report file").into_response(),
    }
}
