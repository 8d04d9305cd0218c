#!/usr/bin/env python3
"""Scanbase's mesher worker (docs/mesh-export.md): a triangle mesh from a point cloud with
Open3D's screened Poisson surface reconstruction (Debian python3-open3d).

Usage: mesh_worker.py POINTS OUTPUT RESOLUTION
  POINTS      little-endian float64 x, y, z triples (what the service read from the scans)
  OUTPUT      the mesh file to write (.obj)
  RESOLUTION  metres: the points are thinned to one per voxel of this size, and the octree
              depth is chosen so that its cells are about this size
Prints one JSON line {"vertices", "triangles", "points"} on success; exits 2 with a message
on stderr when the points make no mesh, 1 on any other failure."""
import json
import math
import sys

import numpy as np
import open3d as o3d

MIN_POINTS = 20
# Poisson depths: below 5 the surface is a blob; above 11 the memory grows past a node's share.
MIN_DEPTH, MAX_DEPTH = 5, 11
# Vertices whose density is in the lowest 2 % are the surface's extrapolation away from the data.
DENSITY_QUANTILE = 0.02
# Above this many points, orienting normals by a minimum spanning tree costs too much: towards the centre instead.
TANGENT_PLANE_LIMIT = 200_000


def fail(message, code=2):
    sys.stderr.write(message + "\n")
    sys.exit(code)


def main():
    if len(sys.argv) != 4:
        fail(__doc__, 1)
    points_file, output, resolution = sys.argv[1], sys.argv[2], float(sys.argv[3])
    xyz = np.fromfile(points_file, dtype="<f8").reshape(-1, 3)
    if len(xyz) < MIN_POINTS:
        fail(f"{len(xyz)} points: a mesh needs at least {MIN_POINTS}")
    cloud = o3d.geometry.PointCloud(o3d.utility.Vector3dVector(xyz))
    cloud = cloud.voxel_down_sample(resolution)
    if len(cloud.points) < MIN_POINTS:
        fail(f"{len(cloud.points)} points at {resolution} m: a mesh needs at least {MIN_POINTS}")
    cloud.estimate_normals(o3d.geometry.KDTreeSearchParamHybrid(radius=resolution * 4, max_nn=30))
    if len(cloud.points) <= TANGENT_PLANE_LIMIT:
        cloud.orient_normals_consistent_tangent_plane(15)
    else:
        cloud.orient_normals_towards_camera_location(cloud.get_center())
    extent = float(np.max(cloud.get_max_bound() - cloud.get_min_bound()))
    depth = int(min(MAX_DEPTH, max(MIN_DEPTH, math.ceil(math.log2(max(extent / resolution, 1.0))))))
    mesh, densities = o3d.geometry.TriangleMesh.create_from_point_cloud_poisson(cloud, depth=depth)
    densities = np.asarray(densities)
    if len(densities):
        mesh.remove_vertices_by_mask(densities < np.quantile(densities, DENSITY_QUANTILE))
    # Poisson closes the surface beyond the data: keep what lies within the points' box.
    box = cloud.get_axis_aligned_bounding_box()
    box = o3d.geometry.AxisAlignedBoundingBox(box.min_bound - resolution, box.max_bound + resolution)
    mesh = mesh.crop(box)
    mesh.remove_unreferenced_vertices()
    mesh.compute_vertex_normals()
    if len(mesh.triangles) == 0:
        fail("the points make no surface at this resolution")
    if not o3d.io.write_triangle_mesh(output, mesh, write_ascii=True, write_vertex_normals=True):
        fail(f"could not write {output}", 1)
    print(json.dumps({"vertices": len(mesh.vertices), "triangles": len(mesh.triangles), "points": len(xyz)}))


if __name__ == "__main__":
    main()
