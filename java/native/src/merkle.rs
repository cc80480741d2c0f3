//! Merkle trees: RFC 6962 heads and proofs, BitTorrent v2, Glacier, over
//! Java arrays, direct buffers or files.

use jni::JNIEnv;
use jni::objects::{JByteArray, JByteBuffer, JClass, JObject, JObjectArray, JString};
use jni::sys::{JNI_FALSE, JNI_TRUE, jboolean, jbyteArray, jint, jlong, jobjectArray};
use parcrypt::merkle::{BitTorrentV2, Chunks, Error, Format, Glacier, Hash, Rfc6962};

use crate::{
    Fail, ILLEGAL_ARG, IO, PROVIDER, Res, array_of_arrays, bytes, direct, fail, guard, new_array, par,
    read_region,
};

fn err(e: Error) -> Fail {
    let msg = e.to_string();
    match e {
        Error::Io(io) => Fail::Throw(IO, format!("{msg}: {io}")),
        Error::Index { .. } | Error::Sizes { .. } | Error::LeafSize(_) | Error::PieceLength(_) => {
            Fail::Throw(ILLEGAL_ARG, msg)
        }
        _ => Fail::Throw(PROVIDER, msg),
    }
}

/// Input bytes: `array[off..off+len]` (copied once) or, when `array` is
/// null, `buffer`'s direct memory from `off` (used in place).
enum Data<'b> {
    Copied(Vec<u8>),
    Direct(&'b [u8]),
}

impl Data<'_> {
    fn get(
        env: &JNIEnv<'_>,
        array: &JByteArray<'_>,
        buffer: &JByteBuffer<'_>,
        off: jint,
        len: jint,
    ) -> Res<Self> {
        if array.is_null() {
            Ok(Data::Direct(direct(env, buffer, off, len)?))
        } else {
            Ok(Data::Copied(read_region(env, array, off, len, 0)?))
        }
    }

    fn bytes(&self) -> &[u8] {
        match self {
            Data::Copied(v) => v,
            Data::Direct(s) => s,
        }
    }
}

fn hash_of(bytes: &[u8], what: &str) -> Res<Hash> {
    bytes.try_into().or_else(|_| {
        fail(
            ILLEGAL_ARG,
            format!("{what} must be 32 bytes, got {}", bytes.len()),
        )
    })
}

fn hashes_of(list: Vec<Vec<u8>>, what: &str) -> Res<Vec<Hash>> {
    list.iter()
        .enumerate()
        .map(|(i, h)| hash_of(h, &format!("{what}[{i}]")))
        .collect()
}

fn to_java_list(env: &mut JNIEnv<'_>, hashes: &[Hash]) -> Res<jobjectArray> {
    let array = env.new_object_array(hashes.len() as jint, "[B", JObject::null())?;
    for (i, h) in hashes.iter().enumerate() {
        let item = env.byte_array_from_slice(h)?;
        env.set_object_array_element(&array, i as jint, &item)?;
        env.delete_local_ref(item)?;
    }
    Ok(array.into_raw())
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
    guard(&mut env, std::ptr::null_mut(), |env| {
        let par = par(threads, strategy)?;
        let leaves = array_of_arrays(env, &leaves, "leaves")?;
        new_array(env, &Rfc6962::root(leaves.as_slice(), &par))
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
    guard(&mut env, std::ptr::null_mut(), |env| {
        let par = par(threads, strategy)?;
        let data = Data::get(env, &array, &buffer, off, len)?;
        let root = Rfc6962::root(&Chunks::new(data.bytes(), leaf_size(leaf)?), &par);
        new_array(env, &root)
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
    guard(&mut env, std::ptr::null_mut(), |env| {
        let par = par(threads, strategy)?;
        let leaves = array_of_arrays(env, &leaves, "leaves")?;
        let index = u64::try_from(index).or_else(|_| fail(ILLEGAL_ARG, format!("negative index {index}")))?;
        let proof = Rfc6962::inclusion_proof(leaves.as_slice(), index, &par).map_err(err)?;
        to_java_list(env, &proof)
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
    guard(&mut env, std::ptr::null_mut(), |env| {
        let par = par(threads, strategy)?;
        let leaves = array_of_arrays(env, &leaves, "leaves")?;
        let (old, new) = (
            u64::try_from(old_size).or_else(|_| fail(ILLEGAL_ARG, "negative old size"))?,
            u64::try_from(new_size).or_else(|_| fail(ILLEGAL_ARG, "negative new size"))?,
        );
        let proof = Rfc6962::consistency_proof(leaves.as_slice(), old, new, &par).map_err(err)?;
        to_java_list(env, &proof)
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
    guard(&mut env, JNI_FALSE, |env| {
        // A hash of the wrong length makes the proof invalid, not the call.
        let leaf = hash_of(&bytes(env, &leaf_hash, "leafHash")?, "leafHash");
        let root = hash_of(&bytes(env, &root, "root")?, "root");
        let proof = hashes_of(array_of_arrays(env, &proof, "proof")?, "proof");
        let (Ok(leaf), Ok(root), Ok(proof)) = (leaf, root, proof) else {
            return Ok(JNI_FALSE);
        };
        let (Ok(index), Ok(size)) = (u64::try_from(index), u64::try_from(size)) else {
            return Ok(JNI_FALSE);
        };
        Ok(
            match Rfc6962::verify_inclusion(&leaf, index, size, &proof, &root) {
                Ok(()) => JNI_TRUE,
                Err(_) => JNI_FALSE,
            },
        )
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
    guard(&mut env, JNI_FALSE, |env| {
        // A hash of the wrong length makes the proof invalid, not the call.
        let old = hash_of(&bytes(env, &old_root, "oldRoot")?, "oldRoot");
        let new = hash_of(&bytes(env, &new_root, "newRoot")?, "newRoot");
        let proof = hashes_of(array_of_arrays(env, &proof, "proof")?, "proof");
        let (Ok(old), Ok(new), Ok(proof)) = (old, new, proof) else {
            return Ok(JNI_FALSE);
        };
        // Sizes are unsigned 64-bit (Java's `Long.parseUnsignedLong` convention).
        let (o, n) = (old_size as u64, new_size as u64);
        Ok(match Rfc6962::verify_consistency(o, n, &old, &new, &proof) {
            Ok(()) => JNI_TRUE,
            Err(_) => JNI_FALSE,
        })
    })
}

/// SHA-256(0x00 ‖ data): an RFC 6962 leaf hash.
#[unsafe(no_mangle)]
pub extern "system" fn Java_dev_parcrypt_jca_Native_merkleLeafHash<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    data: JByteArray<'l>,
) -> jbyteArray {
    guard(&mut env, std::ptr::null_mut(), |env| {
        let data = bytes(env, &data, "data")?;
        new_array(env, &Rfc6962::leaf_hash(&data))
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
    guard(&mut env, std::ptr::null_mut(), |env| {
        let par = par(threads, strategy)?;
        let data = Data::get(env, &array, &buffer, off, len)?;
        let piece = u64::try_from(piece_length).or_else(|_| fail(ILLEGAL_ARG, "negative piece length"))?;
        let hashes = BitTorrentV2::hash(data.bytes(), piece, &par).map_err(err)?;
        let out = env.new_object_array(hashes.piece_layer.len() as jint + 1, "[B", JObject::null())?;
        if let Some(root) = hashes.pieces_root {
            let item = env.byte_array_from_slice(&root)?;
            env.set_object_array_element(&out, 0, &item)?;
        }
        for (i, h) in hashes.piece_layer.iter().enumerate() {
            let item = env.byte_array_from_slice(h)?;
            env.set_object_array_element(&out, i as jint + 1, &item)?;
            env.delete_local_ref(item)?;
        }
        Ok(out.into_raw())
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
    guard(&mut env, std::ptr::null_mut(), |env| {
        let par = par(threads, strategy)?;
        let data = Data::get(env, &array, &buffer, off, len)?;
        new_array(env, &Glacier::tree_hash(data.bytes(), &par))
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
    guard(&mut env, std::ptr::null_mut(), |env| {
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
        match parcrypt::merkle::hash_file(format, &file, &par, |_| {}).map_err(err)? {
            Some(root) => new_array(env, &root),
            None => Ok(std::ptr::null_mut()),
        }
    })
}
