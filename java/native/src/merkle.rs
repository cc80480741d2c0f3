//! Merkle trees: RFC 6962 heads and proofs, BitTorrent v2, Glacier, over
//! Java arrays, direct buffers or files.

use jni::JNIEnv;
use jni::objects::{JByteArray, JByteBuffer, JClass, JObjectArray, JString};
use jni::sys::{jboolean, jbyteArray, jint, jlong, jobjectArray};
use parcrypt::digest::Digest;
use parcrypt::merkle::{BitTorrentV2, Chunks, Error, Format, Glacier, Rfc6962};

use crate::{
    Direct, Fail, ILLEGAL_ARG, IO, PROVIDER, Res, array_of_arrays, bytes, entry, fail, par, read_region,
    unsigned,
};

impl From<Error> for Fail {
    fn from(e: Error) -> Self {
        let msg = e.to_string();
        match e {
            Error::Io(io) => Fail::Throw(IO, format!("{msg}: {io}")),
            Error::Index { .. } | Error::Sizes { .. } | Error::LeafSize(_) | Error::PieceLength(_) => {
                Fail::Throw(ILLEGAL_ARG, msg)
            }
            _ => Fail::Throw(PROVIDER, msg),
        }
    }
}

/// Input bytes: `array[off..off+len]` (copied once) or, when `array` is
/// null, `buffer`'s direct memory from `off` (used in place).
enum Data<'b> {
    Copied(Vec<u8>),
    Direct(Direct<'b>),
}

impl<'b> Data<'b> {
    fn get(
        env: &JNIEnv<'_>,
        array: &JByteArray<'_>,
        buffer: &'b JByteBuffer<'_>,
        off: jint,
        len: jint,
    ) -> Res<Self> {
        if array.is_null() {
            Ok(Data::Direct(Direct::new(env, buffer, off, len)?))
        } else {
            Ok(Data::Copied(read_region(env, array, off, len, 0)?))
        }
    }

    fn bytes(&self) -> &[u8] {
        match self {
            Data::Copied(v) => v,
            Data::Direct(d) => d.bytes(),
        }
    }
}

fn hash_of(bytes: &[u8], what: &str) -> Res<Digest> {
    bytes.try_into().or_else(|_| {
        fail(
            ILLEGAL_ARG,
            format!("{what} must be 32 bytes, got {}", bytes.len()),
        )
    })
}

fn hashes_of(list: Vec<Vec<u8>>, what: &str) -> Res<Vec<Digest>> {
    list.iter()
        .enumerate()
        .map(|(i, h)| hash_of(h, &format!("{what}[{i}]")))
        .collect()
}

/// A hash, a proof and a root from Java: a wrong length makes the proof
/// invalid (`None`), not the call.
fn proof_parts(
    env: &mut JNIEnv<'_>,
    (hash, hash_name): (&JByteArray<'_>, &str),
    (root, root_name): (&JByteArray<'_>, &str),
    proof: &JObjectArray<'_>,
) -> Res<Option<(Digest, Digest, Vec<Digest>)>> {
    let hash = hash_of(&bytes(env, hash, hash_name)?, hash_name);
    let root = hash_of(&bytes(env, root, root_name)?, root_name);
    let proof = hashes_of(array_of_arrays(env, proof, "proof")?, "proof");
    Ok(match (hash, root, proof) {
        (Ok(hash), Ok(root), Ok(proof)) => Some((hash, root, proof)),
        _ => None,
    })
}

fn leaf_size(size: jint) -> Res<usize> {
    usize::try_from(size)
        .ok()
        .filter(|&s| s > 0)
        .ok_or_else(|| Fail::Throw(ILLEGAL_ARG, format!("leaf size must be at least 1, got {size}")))
}

/// The RFC 6962 head of a `byte[][]` of leaves.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_merkleRoot<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    leaves: JObjectArray<'l>,
    threads: jint,
    strategy: jint,
) -> jbyteArray {
    entry(&mut env, |env| {
        let par = par(threads, strategy)?;
        let leaves = array_of_arrays(env, &leaves, "leaves")?;
        Ok(Rfc6962::root(leaves.as_slice(), &par))
    })
}

/// The RFC 6962 head of bytes cut into `leaf_size`-byte leaves.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_merkleRootChunks<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    array: JByteArray<'l>,
    buffer: JByteBuffer<'l>,
    off: jint,
    len: jint,
    leaf: jint,
    threads: jint,
    strategy: jint,
) -> jbyteArray {
    entry(&mut env, |env| {
        let par = par(threads, strategy)?;
        let data = Data::get(env, &array, &buffer, off, len)?;
        Ok(Rfc6962::root(&Chunks::new(data.bytes(), leaf_size(leaf)?), &par))
    })
}

/// The audit path of leaf `index` of a `byte[][]`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_merkleInclusionProof<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    leaves: JObjectArray<'l>,
    index: jlong,
    threads: jint,
    strategy: jint,
) -> jobjectArray {
    entry(&mut env, |env| {
        let par = par(threads, strategy)?;
        let leaves = array_of_arrays(env, &leaves, "leaves")?;
        Ok(Rfc6962::inclusion_proof(
            leaves.as_slice(),
            unsigned(index, "index")?,
            &par,
        )?)
    })
}

/// The consistency proof from the first `old_size` leaves to the first `new_size`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_merkleConsistencyProof<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    leaves: JObjectArray<'l>,
    old_size: jlong,
    new_size: jlong,
    threads: jint,
    strategy: jint,
) -> jobjectArray {
    entry(&mut env, |env| {
        let par = par(threads, strategy)?;
        let leaves = array_of_arrays(env, &leaves, "leaves")?;
        let (old, new) = (unsigned(old_size, "old size")?, unsigned(new_size, "new size")?);
        Ok(Rfc6962::consistency_proof(leaves.as_slice(), old, new, &par)?)
    })
}

/// True if `proof` leads from `leaf_hash` at `index` of a `size`-leaf tree to `root`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_merkleVerifyInclusion<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    leaf_hash: JByteArray<'l>,
    index: jlong,
    size: jlong,
    proof: JObjectArray<'l>,
    root: JByteArray<'l>,
) -> jboolean {
    entry(&mut env, |env| {
        let parts = proof_parts(env, (&leaf_hash, "leafHash"), (&root, "root"), &proof)?;
        let Some((leaf, root, proof)) = parts else {
            return Ok(false);
        };
        let (Ok(index), Ok(size)) = (u64::try_from(index), u64::try_from(size)) else {
            return Ok(false);
        };
        Ok(Rfc6962::verify_inclusion(&leaf, index, size, &proof, &root).is_ok())
    })
}

/// True if `proof` links the `old_size` tree's `old_root` to the `new_size` tree's `new_root`.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_merkleVerifyConsistency<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    old_size: jlong,
    new_size: jlong,
    old_root: JByteArray<'l>,
    new_root: JByteArray<'l>,
    proof: JObjectArray<'l>,
) -> jboolean {
    entry(&mut env, |env| {
        let parts = proof_parts(env, (&old_root, "oldRoot"), (&new_root, "newRoot"), &proof)?;
        let Some((old, new, proof)) = parts else {
            return Ok(false);
        };
        // Sizes are unsigned 64-bit (Java's `Long.parseUnsignedLong` convention).
        let (o, n) = (old_size as u64, new_size as u64);
        Ok(Rfc6962::verify_consistency(o, n, &old, &new, &proof).is_ok())
    })
}

/// SHA-256(0x00 ‖ data): an RFC 6962 leaf hash.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_merkleLeafHash<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    data: JByteArray<'l>,
) -> jbyteArray {
    entry(&mut env, |env| {
        Ok(Rfc6962::leaf_hash(&bytes(env, &data, "data")?))
    })
}

/// BEP 52: element 0 is the pieces root (null for empty data), then the piece layer.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_merkleBitTorrentV2<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    array: JByteArray<'l>,
    buffer: JByteBuffer<'l>,
    off: jint,
    len: jint,
    piece_length: jlong,
    threads: jint,
    strategy: jint,
) -> jobjectArray {
    entry(&mut env, |env| {
        let par = par(threads, strategy)?;
        let data = Data::get(env, &array, &buffer, off, len)?;
        let hashes = BitTorrentV2::hashes(data.bytes(), unsigned(piece_length, "piece length")?, &par)?;
        let mut out = vec![hashes.pieces_root];
        out.extend(hashes.piece_layer.into_iter().map(Some));
        Ok(out)
    })
}

/// The Amazon Glacier tree hash (1 MiB chunks).
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_merkleGlacier<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    array: JByteArray<'l>,
    buffer: JByteBuffer<'l>,
    off: jint,
    len: jint,
    threads: jint,
    strategy: jint,
) -> jbyteArray {
    entry(&mut env, |env| {
        let par = par(threads, strategy)?;
        let data = Data::get(env, &array, &buffer, off, len)?;
        Ok(Glacier::root(data.bytes(), &par))
    })
}

/// The digest of a file as `parcrypt hash --format` prints it: `format`
/// 0 = sha256, 1 = rfc6962 (leaves of `leaf` bytes), 2 = bittorrent-v2,
/// 3 = glacier. Null only for an empty file in bittorrent-v2.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_merkleHashFile<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    path: JString<'l>,
    format: jint,
    leaf: jint,
    threads: jint,
    strategy: jint,
) -> jbyteArray {
    entry(&mut env, |env| {
        let par = par(threads, strategy)?;
        let path: String = env.get_string(&path)?.into();
        let format = match format {
            0 => Format::Sha256,
            1 => Format::Rfc6962 {
                leaf_size: leaf_size(leaf)?,
            },
            2 => Format::BitTorrentV2,
            3 => Format::Glacier,
            other => return fail(ILLEGAL_ARG, format!("unknown format code {other}")),
        };
        let file = std::fs::File::open(&path).or_else(|e| fail(IO, format!("{path}: {e}")))?;
        Ok(parcrypt::merkle::hash_file(format, &file, &par, |_| {})?)
    })
}
