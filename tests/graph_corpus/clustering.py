"""k-means steps, nearest centroids and other small clustering routines."""

import numpy as np

from tests.graph_corpus import case, limit

POINTS = np.array([[0.0, 0.0], [0.1, 0.2], [5.0, 5.0], [5.2, 4.9], [0.2, -0.1]])
CENTROIDS = np.array([[0.0, 0.1], [4.0, 4.0]])
FAR = np.array([[0.0, 0.1], [100.0, 100.0]])


@case((POINTS, CENTROIDS), (POINTS, FAR), cls=(3, 7))
def kmeans_step(points, centroids):
    d = np.sum((points[:, None, :] - centroids[None, :, :]) ** 2, axis=-1)
    labels = np.argmin(d, axis=1)
    new = []
    for j in range(centroids.shape[0]):
        mask = labels == j
        if np.any(mask):
            new.append(np.mean(points[mask], axis=0))
        else:
            new.append(centroids[j])
    return np.stack(new), labels


@case((POINTS, CENTROIDS), (POINTS, FAR), cls=(1, 7))
def kmeans_fit(points, centroids):
    shift = np.inf
    iterations = 0
    while shift > 1e-9 and iterations < 20:
        d = np.sum((points[:, None, :] - centroids[None, :, :]) ** 2, axis=-1)
        labels = np.argmin(d, axis=1)
        new = np.stack(
            [
                np.where(np.any(labels == j), np.mean(points[labels == j], axis=0), centroids[j])
                for j in range(centroids.shape[0])
            ]
        )
        shift = np.max(np.abs(new - centroids))
        centroids = new
        iterations += 1
    return centroids, iterations


@case((np.array([0.2, 0.1]), CENTROIDS), (np.array([9.0, 9.0]), CENTROIDS), cls=(2, 5))
def nearest_centroid(x, centroids):
    best = None
    best_d = np.inf
    for j in range(len(centroids)):
        d = np.sum((x - centroids[j]) ** 2)
        if d < best_d:
            best_d = d
            best = j
    return best


@case(
    (np.array([0.2, 0.1]), CENTROIDS, 1.0),
    (np.array([9.0, 9.0]), CENTROIDS, 1.0),
    cls=(2, 5),
)
def centroid_within_radius(x, centroids, radius):
    for j in range(centroids.shape[0]):
        if np.sqrt(np.sum((x - centroids[j]) ** 2)) <= radius:
            return j
    return None


@case((POINTS, CENTROIDS), (POINTS, FAR), cls=(7, 9))
def assign_labels_loop(points, centroids):
    labels = []
    for p in points:
        d = np.sum((centroids - p) ** 2, axis=1)
        labels.append(np.argmin(d))
    return np.array(labels)


@case((POINTS, CENTROIDS), (POINTS, FAR), cls=(9,))
def inertia(points, centroids):
    total = 0.0
    for p in points:
        total += np.min(np.sum((centroids - p) ** 2, axis=1))
    return total


@case((POINTS, 2), (POINTS, 3), (POINTS, 1), cls=(7, 8), expect="error")
def farthest_point_init(points, k):
    chosen = [0]
    for _ in range(k - 1):
        d = np.min(np.sum((points[:, None, :] - points[chosen][None, :, :]) ** 2, axis=-1), axis=1)
        chosen.append(int(np.argmax(d)))
    return points[chosen]


@case(
    (POINTS, np.array([0, 0, 1, 1, 0])),
    (POINTS, np.array([1, 1, 1, 1, 1])),
    cls=(3, 8),
    expect="error",
)
def cluster_sizes(points, labels):
    sizes = {}
    for j in range(2):
        sizes[j] = int(np.sum(labels == j))
    return sizes


@case((POINTS,), (POINTS[:2],), cls=(4, 5))
def medoid(points):
    best_i = 0
    best_cost = np.inf
    for i in range(points.shape[0]):
        cost = np.sum(np.sqrt(np.sum((points - points[i]) ** 2, axis=1)))
        if cost < best_cost:
            best_cost = cost
            best_i = i
    return points[best_i]


@case((POINTS, np.array([0, 0, 1, 1, 0]), 2), (POINTS, np.array([0, 0, 0, 0, 0]), 2), cls=(3,))
@limit("item assignment `a[j] = v` into a container's array with a Tensor index")
def centroid_dict(points, labels, k):
    out = {"centroids": np.zeros((k, points.shape[1])), "empty": 0}
    for j in range(k):
        members = labels == j
        if np.sum(members) > 0:
            out["centroids"][j] = np.mean(points[members], axis=0)
        else:
            out["empty"] += 1
    return out


@case((POINTS, 1.0), (POINTS, 0.01), cls=(1, 7))
@limit("a Python loop over a list of lists that meets a Tensor condition")
def leader_clustering(points, radius):
    leaders = [points[0]]
    for p in points[1:]:
        for q in leaders:
            if np.sum((p - q) ** 2) <= radius**2:
                break
        else:
            leaders.append(p)
    return np.stack(leaders)


@case((POINTS, CENTROIDS, 0.5), (POINTS, CENTROIDS, 0.0), cls=(3,))
@limit("item assignment `a[j] = v` into an argument array in a staged loop")
def update_centroids_inplace(points, centroids, lr):
    for p in points:
        j = np.argmin(np.sum((centroids - p) ** 2, axis=1))
        centroids[j] = centroids[j] + lr * (p - centroids[j])
    return centroids
