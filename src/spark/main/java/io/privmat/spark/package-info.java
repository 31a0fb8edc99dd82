/**
 * The Apache Spark engine for EXTERNAL datasets (the Spark-enabled build, docs/scale-out.md): Spark
 * reads the owner's Parquet or CSV, clips every row to the public bound and returns exact sums (and
 * Hardt–Roth's row sketches XΩ); the service checks them and adds the noise. Executors receive public
 * parameters only, and Hardt–Roth's Ω, which is released to nobody and whose secrecy the privacy
 * argument does not use — never noise, a seed or a key.
 */
@NullMarked
package io.privmat.spark;

import org.jspecify.annotations.NullMarked;
