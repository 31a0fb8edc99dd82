/**
 * The Apache Spark engine for EXTERNAL datasets (the Spark-enabled build, docs/scale-out.md): Spark
 * reads the owner's Parquet or CSV, clips every row to the public bound and returns exact sums; the
 * service checks them and adds the noise. Executors receive public parameters only.
 */
@NullMarked
package io.privmat.spark;

import org.jspecify.annotations.NullMarked;
