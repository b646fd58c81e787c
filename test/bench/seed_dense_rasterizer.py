"""A port of the SplatBench seed's renderer (../shared/seeds/splatbench.txt, "Renderer: a
differentiable EWA rasterizer in plain PyTorch"): dense EWA splatting, every Gaussian evaluated
at every pixel as [N, H, W] tensors. Each Gaussian is projected with 3D Gaussian splatting's
clamped Jacobian (|x/z| at most 1.3 tan(fov/2) off axis), a 0.3 px^2 low-pass dilation is added,
Gaussians are sorted by depth and composited front to back with alpha clamped to 0.99 and
discarded below 1/255, over a white background. float32, as the seed runs on a GPU. No early
stop at low transmittance (the seed names none), so pixels behind near-opaque piles differ from
the lab's by up to the lab's 1e-4 stop.

Used by test/bench/raster.bench.ts (--peer torch), the lab's bench peer for the seed comparison.
Input (stdin): JSON {means [N*3], scales [N*3], quats [N*4] (w, x, y, z), opacities [N],
colors [N*3], camera {width, height, fx, fy, cx, cy, world_to_camera [16] row-major}, reps, out}.
Output: the last render's rgb [H, W, 3] float32 written to `out`, and one JSON line on stdout
{ms: [wall ms per render], cpu: [process CPU ms per render], threads, torch}.
"""
import json
import sys
import time

import torch

NEAR_PLANE = 0.01
DILATION = 0.3
ALPHA_MIN = 1.0 / 255.0
ALPHA_MAX = 0.99


def quat_to_mat(q):
    q = q / q.norm(dim=-1, keepdim=True)
    w, x, y, z = q.unbind(-1)
    return torch.stack([
        1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
        2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
        2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
    ], dim=-1).reshape(-1, 3, 3)


def render(means, scales, quats, opacities, colors, cam):
    width, height = cam['width'], cam['height']
    fx, fy, cx, cy = cam['fx'], cam['fy'], cam['cx'], cam['cy']
    w2c = torch.tensor(cam['world_to_camera'], dtype=torch.float32).reshape(4, 4)
    rot_w, t_w = w2c[:3, :3], w2c[:3, 3]
    tc = means @ rot_w.T + t_w
    x, y, z = tc.unbind(-1)
    keep = z >= NEAR_PLANE
    means, scales, quats, opacities, colors = means[keep], scales[keep], quats[keep], opacities[keep], colors[keep]
    x, y, z = x[keep], y[keep], z[keep]
    m = quat_to_mat(quats) * scales[:, None, :]
    cov_cam = rot_w @ (m @ m.transpose(1, 2)) @ rot_w.T
    tan_x, tan_y = 0.5 * width / fx, 0.5 * height / fy
    u, v = x / z, y / z
    uc = u.clamp(-(cx / fx + 0.3 * tan_x), (width - cx) / fx + 0.3 * tan_x)
    vc = v.clamp(-(cy / fy + 0.3 * tan_y), (height - cy) / fy + 0.3 * tan_y)
    zeros = torch.zeros_like(z)
    jac = torch.stack([fx / z, zeros, -fx * uc / z, zeros, fy / z, -fy * vc / z], dim=-1).reshape(-1, 2, 3)
    cov2d = jac @ cov_cam @ jac.transpose(1, 2) + DILATION * torch.eye(2)
    a, b, c = cov2d[:, 0, 0], cov2d[:, 0, 1], cov2d[:, 1, 1]
    det = a * c - b * b
    ok = det > 0
    conic = torch.stack([c / det, -b / det, a / det], dim=-1)[ok]
    mean2d = torch.stack([fx * u + cx, fy * v + cy], dim=-1)[ok]
    order = torch.argsort(z[ok], stable=True)
    conic, mean2d, opacities, colors = conic[order], mean2d[order], opacities[ok][order], colors[ok][order]
    py, px = torch.meshgrid(torch.arange(height, dtype=torch.float32) + 0.5, torch.arange(width, dtype=torch.float32) + 0.5, indexing='ij')
    dx = px[None] - mean2d[:, 0, None, None]
    dy = py[None] - mean2d[:, 1, None, None]
    power = -0.5 * (conic[:, 0, None, None] * dx * dx + 2 * conic[:, 1, None, None] * dx * dy + conic[:, 2, None, None] * dy * dy)
    alpha = (opacities[:, None, None] * torch.exp(power)).clamp(max=ALPHA_MAX)
    alpha = torch.where(alpha < ALPHA_MIN, torch.zeros_like(alpha), alpha)
    trans = torch.cumprod(torch.cat([torch.ones_like(alpha[:1]), 1 - alpha], dim=0), dim=0)
    weights = alpha * trans[:-1]
    rgb = torch.einsum('nhw,nc->hwc', weights, colors) + trans[-1][..., None]
    return rgb


def main():
    job = json.load(sys.stdin)
    f32 = lambda k: torch.tensor(job[k], dtype=torch.float32)
    n = len(job['opacities'])
    args = (f32('means').reshape(n, 3), f32('scales').reshape(n, 3), f32('quats').reshape(n, 4), f32('opacities'), f32('colors').reshape(n, 3))
    times = []
    cpu = []
    rgb = None
    with torch.no_grad():
        for _ in range(job['reps']):
            t0 = time.perf_counter()
            c0 = time.process_time()
            rgb = render(*args, job['camera'])
            times.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
    rgb.contiguous().numpy().astype('float32').tofile(job['out'])
    print(json.dumps({'ms': times, 'cpu': cpu, 'threads': torch.get_num_threads(), 'torch': torch.__version__}))


if __name__ == '__main__':
    main()
