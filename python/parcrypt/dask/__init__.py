"""The same trees, signatures and encrypted files on a Dask cluster.

``pip install "./python[dask]"`` adds dask and distributed. Every function
takes ``client=None``: with none, a ``distributed.LocalCluster`` (one worker
process per core) is started for the call and closed after it; with a
``distributed.Client``, its cluster is used. Results are byte-identical to
the single-machine ``parcrypt hash`` / ``merkle root`` / ``encrypt``.

How work is cut (docs/SCALING.md):

- files are read by the workers (a shared file system is assumed: every
  worker sees the same paths); what crosses the network is compact ranges
  (a few hundred bytes per task), hashes and booleans — never the data,
  except where the source is in memory (dask arrays and bags of leaves);
- large files are cut into parts of at most ``part_size`` bytes (default
  256 MiB): for ``merkle_root``, equal parts on leaf boundaries, as many as
  a multiple of the cluster's threads; for ``hash_files`` and
  ``inclusion_proof``, a power-of-two number of leaves (tree nodes);
- encrypting one large file sends the stream's **payload key** to the
  workers (it opens and forges that stream's segments, nothing else): use
  Dask's TLS security (``distributed.security.Security``) on a real
  network; parcrypt never logs it. The Cobblestone functions send the
  input key and the context to the workers (each derives the message's
  keys from them and the header), under the same advice.

Functions: :func:`hash_files`, :func:`merkle_root`, :func:`inclusion_proof`,
:func:`verify_batch`, :func:`encrypt_files`, :func:`decrypt_files`,
:func:`encrypt_large`, :func:`cobblestone_encrypt`, :func:`cobblestone_decrypt`.

The package is cut by concern: ``_trees`` (Merkle trees and manifests),
``_verify`` (ECDSA batches), ``_files`` (encrypted files), over
``_common`` (the cluster, positional reads, how inputs are cut); everything
public is imported here, so ``from parcrypt.dask import …`` is the one way
in.
"""

from ._common import BATCH_FILES, BATCHES_PER_THREAD, DEFAULT_PART, LEAF, MAX_BATCH_FILES, _batches, _cut, _view
from ._files import _cob_runs, cobblestone_decrypt, cobblestone_encrypt, decrypt_files, encrypt_files, encrypt_large
from ._trees import PROOF_BLOCK, hash_files, inclusion_proof, manifest_line, merkle_root
from ._verify import PARTS_PER_WORKER, VERIFY_GRAIN, verify_batch

__all__ = ["hash_files", "merkle_root", "inclusion_proof", "verify_batch", "encrypt_files", "decrypt_files",
           "encrypt_large", "manifest_line", "cobblestone_encrypt", "cobblestone_decrypt"]
