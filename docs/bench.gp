set terminal pngcairo size 1200,840 font 'sans,10'
set output 'docs/bench.png'
set termoption noenhanced
set multiplot layout 2,2 rowsfirst
set grid ytics
set key top left horizontal
$w0 << EOD
8 526.4 860.1 624.0
64 567.2 940.4 651.2
256 710.8 1048.2 759.1
EOD
$a0 << EOD
1 1.650 1.009 1.450
2 3.133 2.030 2.784
3 2.388 1.668 2.143
4 2.524 1.739 2.299
EOD
$w1 << EOD
8 1456.2 2155.2 1354.7
64 1447.0 2292.5 1416.4
256 1796.2 2616.2 1693.3
EOD
$a1 << EOD
1 0.635 0.416 0.656
2 1.245 0.851 1.179
3 1.471 0.935 1.507
4 1.285 0.864 1.270
EOD
set title 'x86_64: one writer, overwrite, no reader (ns per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:1362.7]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w0 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'x86_64: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:4.1]
set style data linespoints
set xtics 1
plot $a0 using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, '' using 1:4 title 'locked' lw 2
set title 'arm64: one writer, overwrite, no reader (ns per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:3401.1]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w1 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:2.0]
set style data linespoints
set xtics 1
plot $a1 using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, '' using 1:4 title 'locked' lw 2
unset multiplot
