//! What the signature batches share: reading `(public_key, data,
//! signature)` / `(public_key, data, signature, context)` items, each
//! problem named by its index, and the `context=` argument.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::buffer::In;

/// The longest context string FIPS 204 and FIPS 205 allow (its length is one byte).
pub const MAX_CONTEXT: usize = 255;

/// `context=None` or a bytes-like object (small: copied).
pub fn context_of(context: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<u8>> {
    match context {
        Some(c) if !c.is_none() => Ok(In::get(c, "context")?.as_slice().to_vec()),
        _ => Ok(Vec::new()),
    }
}

/// One item of a verification batch; `key` is the caller's object, for
/// the family to cast.
pub struct Item<'py> {
    pub key: Bound<'py, PyAny>,
    pub data: In,
    pub signature: In,
    pub context: Vec<u8>,
}

/// The items of a batch: a `TypeError` for one that is not a 3- or
/// 4-tuple or holds no bytes, a `ValueError` for a context over
/// [`MAX_CONTEXT`] bytes, each naming the item (`items[3][2]`).
pub fn items<'py>(items: &Bound<'py, PyAny>) -> PyResult<Vec<Item<'py>>> {
    let mut out = Vec::new();
    for (i, item) in items.try_iter()?.enumerate() {
        let shape = || {
            PyTypeError::new_err(format!(
                "items[{i}] must be a (public_key, data, signature) or (public_key, data, signature, context) tuple"
            ))
        };
        let fields: Vec<Bound<'py, PyAny>> = item?.extract().map_err(|_| shape())?;
        if !(3..=4).contains(&fields.len()) {
            return Err(shape());
        }
        let context = context_of(fields.get(3))?;
        if context.len() > MAX_CONTEXT {
            return Err(PyValueError::new_err(format!(
                "items[{i}][3]: a context is at most {MAX_CONTEXT} bytes, not {}",
                context.len()
            )));
        }
        out.push(Item {
            data: In::get(&fields[1], &format!("items[{i}][1]"))?,
            signature: In::get(&fields[2], &format!("items[{i}][2]"))?,
            key: fields[0].clone(),
            context,
        });
    }
    Ok(out)
}
