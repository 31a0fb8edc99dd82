{{- define "privmat.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "privmat.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "privmat.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "privmat.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "privmat.selectorLabels" -}}
app.kubernetes.io/name: {{ include "privmat.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "privmat.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "privmat.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "privmat.databaseSecretName" -}}
{{- if .Values.database.existingSecret -}}
{{- .Values.database.existingSecret -}}
{{- else -}}
{{- printf "%s-database" (include "privmat.fullname" .) -}}
{{- end -}}
{{- end -}}

{{- define "privmat.sparkMaster" -}}
{{- if and .Values.spark.standalone.enabled (or (not .Values.spark.master) (hasPrefix "local" .Values.spark.master)) -}}
{{- printf "spark://%s-spark-master:7077" (include "privmat.fullname" .) -}}
{{- else -}}
{{- .Values.spark.master -}}
{{- end -}}
{{- end -}}
