"""Read fio's JSON output (--output-format=json or json+)."""
import json


def load(path):
    """Parse one fio JSON file.  fio may print notes before the JSON object
    (e.g. 'note: both iodepth >= 1 and synchronous I/O engine'), so the
    object is taken from the first '{' on."""
    with open(path) as f:
        text = f.read()
    start = text.find('{')
    if start < 0:
        raise ValueError(f'{path}: no JSON object in fio output')
    return json.loads(text[start:])


def jobs(doc):
    """Per job: name, error, and per direction (read/write) io bytes, IOPS,
    bandwidth (bytes/s), completion latency (clat) and total latency (lat,
    submission to completion) mean and percentiles (ns)."""
    out = []
    for job in doc.get('jobs', []):
        entry = {'name': job.get('jobname'), 'error': job.get('error', 0)}
        for ddir in ('read', 'write'):
            d = job.get(ddir, {})
            clat = d.get('clat_ns', {})
            pct = clat.get('percentile', {})
            lat = d.get('lat_ns', {})
            lpct = lat.get('percentile', {})
            entry[ddir] = {
                'io_bytes': d.get('io_bytes', 0),
                'iops': d.get('iops', 0.0),
                'bw_bytes': d.get('bw_bytes', 0),
                'clat_mean_ns': clat.get('mean', 0.0),
                'clat_p50_ns': pct.get('50.000000'),
                'clat_p99_ns': pct.get('99.000000'),
                'clat_p999_ns': pct.get('99.900000'),
                'total_ios': d.get('total_ios', 0),
                # the measured window of this direction, whole ms
                'runtime_ms': d.get('runtime', 0),
                # submission to completion (fio's lat); percentiles only
                # with --lat_percentiles=1
                'lat_mean_ns': lat.get('mean', 0.0),
                'lat_p50_ns': lpct.get('50.000000'),
                'lat_p99_ns': lpct.get('99.000000'),
                'lat_p999_ns': lpct.get('99.900000'),
            }
        out.append(entry)
    return out


def verify_errors(doc):
    """Jobs that reported an error (a verify mismatch makes fio set error)."""
    return [(j['name'], j['error']) for j in jobs(doc) if j['error']]
