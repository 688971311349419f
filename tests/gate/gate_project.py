"""What the gate's end-to-end tests do to tests/data/gate_project."""


def swap_thread_roles(path):
    """Rewrites the project's transpose.cu with the roles of threadIdx.x
    and threadIdx.y swapped (c from threadIdx.y, r from threadIdx.x): its
    load becomes strided, a regression against the recorded baseline."""
    with open(path) as f:
        original = f.read()
    swapped = (original.replace("blockDim.x + threadIdx.x", "blockDim.x + threadIdx.@")
               .replace("blockDim.y + threadIdx.y", "blockDim.y + threadIdx.x")
               .replace("threadIdx.@", "threadIdx.y"))
    assert swapped != original, path
    with open(path, "w") as f:
        f.write(swapped)
    return original
