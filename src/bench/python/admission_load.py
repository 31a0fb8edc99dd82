"""Submits queries to a running privmat as fast as it can from several client threads in this
process (out of the service's process), each on its own keep-alive connection, and prints one JSON
line: how many were admitted (202), the wall time, the submit latency percentiles and this process's
CPU time. Used by JobEngineBenchmark (docs/benchmarks.md).

    python3 admission_load.py PORT API_KEY DATASET_ID TOTAL CLIENTS QUERY_JSON
"""
import http.client
import json
import os
import sys
import threading
import time


def main():
    port, key, dataset, total, clients, query = sys.argv[1:7]
    total, clients = int(total), int(clients)
    body = query.encode()
    headers = {"Authorization": "Bearer " + key, "Content-Type": "application/json",
               "Accept": "application/json"}
    path = "/v1/datasets/%s/queries" % dataset
    lock = threading.Lock()
    state = {"next": 0, "admitted": 0, "other": {}}
    latencies = []

    def client():
        conn = http.client.HTTPConnection("localhost", int(port), timeout=60)
        mine = []
        while True:
            with lock:
                if state["next"] >= total:
                    break
                state["next"] += 1
            t0 = time.perf_counter()
            conn.request("POST", path, body, headers)
            response = response_of(conn)
            mine.append((time.perf_counter() - t0) * 1000)
            with lock:
                if response == 202:
                    state["admitted"] += 1
                else:
                    state["other"][response] = state["other"].get(response, 0) + 1
        conn.close()
        with lock:
            latencies.extend(mine)

    def response_of(conn):
        r = conn.getresponse()
        r.read()
        return r.status

    threads = [threading.Thread(target=client) for _ in range(clients)]
    cpu0 = os.times()
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - start
    cpu1 = os.times()
    latencies.sort()

    def pct(p):
        return latencies[min(len(latencies) - 1, max(0, int(-(-p * len(latencies) // 1)) - 1))]

    print(json.dumps({"admitted": state["admitted"], "other": state["other"], "seconds": seconds,
                      "p50": pct(0.5), "p99": pct(0.99),
                      "cpu": (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system)}))


if __name__ == "__main__":
    main()
